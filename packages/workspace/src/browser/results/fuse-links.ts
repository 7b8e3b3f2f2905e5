import { html, nothing } from 'lit';
import type { Api } from '../../data/client';
import { getForm } from '../../data/forms';
import type { ResponseItem } from '../../data/results';

/*
 * A response a Fuse question linked to one of another form (docs/logic.md "Fuse"): its screen names the other
 * response and links to it, in that form's results, opened by `?response=`. The other form is named by its title
 * when the reader may read it (the API answers it), else as "another form".
 */

type Link = { form_id: string; response_id: string };

/** The other response's place: this page's address with the other form's id, or null when the address holds none. */
export function linkedResponseHref(formId: string, link: Link): string | null {
  const here = `/${encodeURIComponent(formId)}`;
  if (!location.pathname.includes(here)) return null;
  const url = new URL(location.href);
  url.pathname = location.pathname.replace(here, `/${encodeURIComponent(link.form_id)}`);
  url.search = `?view=responses&response=${encodeURIComponent(link.response_id)}`;
  url.hash = '';
  return url.href;
}

/**
 * The titles of the forms responses link to, read once per form: undefined while unknown (the read starts and
 * `changed` is called when it ends), null when the reader may not read that form (or it is gone).
 */
export class LinkedFormTitles {
  private readonly titles = new Map<string, string | null | undefined>();
  constructor(private readonly changed: () => void) {}

  get(api: Api, formId: string): string | null | undefined {
    if (this.titles.has(formId)) return this.titles.get(formId);
    this.titles.set(formId, undefined);
    getForm(api, formId).then(
      ({ form }) => this.titles.set(formId, form.title),
      () => this.titles.set(formId, null),
    ).finally(this.changed);
    return undefined;
  }
}

/** The response's links, as rows of its details list; `title` names the other form (LinkedFormTitles). */
export function fuseDetails(r: ResponseItem, formId: string, title: (formId: string) => string | null | undefined) {
  const rows: Array<[string, Link | null | undefined]> = [
    ['Started in', r.fused_from],
    ['Continued in', r.fused_to],
  ];
  return rows.map(([label, link]) => {
    if (!link) return nothing;
    const href = linkedResponseHref(formId, link);
    // While the title is read the row says only "Continued in", never "another form" then the title.
    const name = title(link.form_id);
    return html`<div><dt>${label}${name ? ` “${name}”` : name === null ? ' another form' : ''}</dt><dd>${href ? html`<a href=${href}>Open that response</a> ` : nothing}<code>${link.response_id}</code></dd></div>`;
  });
}

/** The response `?response=` names, to open once the table has loaded. */
export const responseInUrl = (): string | null => new URLSearchParams(location.search).get('response');
