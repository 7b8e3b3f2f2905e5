import { SERVER_STEPS } from './server-runners.js';
import * as store from './store.js';
import type { StepResult } from './types.js';

/*
 * Fuse questions on the respondent's page (docs/logic.md "Fuse"): the server completes the response at the Fuse
 * and starts its continuation in the Fuse form; the page then becomes the Fuse form, in place (no second click),
 * answering it in that continuation with the hidden fields it carries.
 */

/** Kinds the server runs when the page reaches them: the steps of server-runners.ts, and the Fuse. */
export const RUN_STEPS: ReadonlySet<string> = new Set([...SERVER_STEPS, 'fuse']);

/** Where the page goes from a Fuse: the continuation in the Fuse form, or null when it takes no responses. */
export interface FuseNext {
  form_id: string;
  slug: string;
  response_id: string;
  resume_token: string;
  hidden: Record<string, string>;
}

/** What the step answers for a Fuse question. */
export type FuseResult = { question_id: string; type: 'fuse'; status: 'continued' | 'unavailable'; next: FuseNext | null };

export const isFuse = (r: StepResult | FuseResult): r is FuseResult => r.type === 'fuse';

/** Continuations handed over on this page, by the Fuse form's slug: the way when storage is off. */
const handed = new Map<string, store.Resume>();

/**
 * The continuation handed to the Fuse form `slug`, until its page moved past its first question (then it is an
 * ordinary partial response to resume): `index` -1 means "from the form's start". Kept in storage too, so a
 * reload of the Fuse form's page goes on in the same response.
 */
export function continuation(slug: string): store.Resume | null {
  const kept = store.resume.get(slug) ?? handed.get(slug) ?? null;
  return kept && kept.index < 0 ? kept : null;
}

/**
 * The page passed a Fuse (the response it answered is completed): with a continuation, this element is replaced
 * by the Fuse form's (the same attributes, in place), which starts in it; on the `/f/` page the address becomes
 * the Fuse form's. Without one (`unavailable`), `ended` shows this form's end.
 */
export function fuseEnded(r: FuseResult, host: HTMLElement, slug: string, standalone: boolean, ended: () => void): void {
  store.resume.set(slug, null);
  const next = r.next;
  if (!next) return ended();
  const entry: store.Resume = { id: next.response_id, token: next.resume_token, answers: {}, index: -1, history: [], hidden: next.hidden };
  handed.set(next.slug, entry);
  store.resume.set(next.slug, entry);
  host.dispatchEvent(new CustomEvent('formloom:fuse', { detail: { form_id: next.form_id, slug: next.slug, response_id: next.response_id }, bubbles: true, composed: true }));
  if (standalone) {
    // The /f/ page's address names its form: a reload then opens the Fuse form in its continuation.
    const url = new URL(location.href);
    url.pathname = url.pathname.replace(/[^/]*\/?$/, encodeURIComponent(next.slug));
    url.search = new URLSearchParams(location.search).has('lang') ? `?lang=${encodeURIComponent(new URLSearchParams(location.search).get('lang')!)}` : '';
    history.replaceState(history.state, '', url);
  }
  const el = host.cloneNode(false) as HTMLElement;
  el.setAttribute('slug', next.slug);
  // The respondent was using the form: its next screen takes the focus, as the next question would.
  focusHanded.add(el);
  host.replaceWith(el);
}

const focusHanded = new WeakSet<HTMLElement>();

/** Whether `el` was handed over by a Fuse while the respondent used the form (element.ts: its screens take the focus). */
export const handedOver = (el: HTMLElement): boolean => focusHanded.has(el);
