import { html, nothing } from 'lit';
import type { ResponseItem } from '../../data/results';

/*
 * A response a Fuse question linked to one of another form (docs/logic.md "Fuse"): its screen names the other
 * response and links to it, in that form's results, opened by `?response=`.
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

/** The response's links, as rows of its details list. */
export function fuseDetails(r: ResponseItem, formId: string) {
  const rows: Array<[string, Link | null | undefined]> = [
    ['Started in another form', r.fused_from],
    ['Continued in another form', r.fused_to],
  ];
  return rows.map(([label, link]) => {
    if (!link) return nothing;
    const href = linkedResponseHref(formId, link);
    return html`<div><dt>${label}</dt><dd>${href ? html`<a href=${href}>Open that response</a> ` : nothing}<code>${link.response_id}</code></dd></div>`;
  });
}

/** The response `?response=` names, to open once the table has loaded. */
export const responseInUrl = (): string | null => new URLSearchParams(location.search).get('response');
