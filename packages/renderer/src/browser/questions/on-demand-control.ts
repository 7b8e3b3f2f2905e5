import { h } from '../dom.js';
import { MOUNT_URL } from '../script-url.js';
import type { Control, ControlContext } from '../types.js';

/*
 * Payment and booking questions on the page (src/on-demand.ts): their controls come from a second bundle
 * beside the script (`formloom-form-on-demand.<hash>.js`), imported once per page from where Formloom is
 * mounted. The element starts the import as soon as it knows the form has such a question (and `/f/` preloads
 * the file), so it is there long before the respondent reaches one; until it is, the question shows "Loading…".
 */

type OnDemand = typeof import('./on-demand.js');

let loading: Promise<OnDemand> | null = null;
let tries = 0;

/**
 * The on-demand controls, imported from `<mount>/formloom/assets/` at the first call (the element's
 * `base-url`, else where this script came from); later calls share that import. A failed import is forgotten,
 * so the next call tries again (under another address: browsers keep a module's failure by its URL).
 */
export function loadOnDemand(mount: string = MOUNT_URL): Promise<OnDemand> {
  if (!loading) {
    const url = `${mount.replace(/\/+$/, '')}/formloom/assets/${FORMLOOM_ON_DEMAND_FILE}${tries++ ? `?try=${tries}` : ''}`;
    loading = import(url) as Promise<OnDemand>;
    loading.catch(() => (loading = null));
  }
  return loading;
}

/** A control made by the on-demand bundle: "Loading…" in its place until it is there, a retry if it fails. */
export function onDemandControl(ctx: ControlContext, make: (kinds: OnDemand) => Control): Control {
  const el = h('div', { class: 'fl-on-demand' });
  let real: Control | null = null;
  let focusAsked = false;
  const load = () => {
    el.replaceChildren(h('p', { class: 'fl-loading', role: 'status' }, ctx.t('loading')));
    loadOnDemand().then(
      (kinds) => {
        real = make(kinds);
        el.replaceChildren(real.el);
        if (focusAsked && el.isConnected) real.focus();
      },
      () => el.replaceChildren(h('p', { class: 'fl-notice', role: 'alert' }, ctx.t('connection_lost'), ' ', h('button', { type: 'button', class: 'fl-button fl-retry', onclick: load }, ctx.t('retry')))),
    );
  };
  load();
  return {
    el,
    focus: () => (real ? real.focus() : void (focusAsked = true)),
    // Nothing to move on with yet: the question's own control decides once it is there.
    ready: () => (real ? (real.ready?.() ?? null) : ctx.t('loading')),
    key: (e) => real?.key?.(e) ?? false,
  };
}
