import { h, uid } from './dom.js';
import { errorIcon } from './icons.js';
import type { PublicForm, PublicQuestion, SubmittedResponse } from './types.js';
import type { Translate } from './i18n/index.js';
import { fallbacksOnly, type Fill } from './recall-text.js';

/** A screen with a heading, optional text and optional actions: welcome, thank-you, closed, errors. */
export function screen(level: 1 | 2, title: string, text: string | null, ...actions: (HTMLElement | null)[]): HTMLElement {
  return h('section', { class: 'fl-screen' }, h(level === 1 ? 'h1' : 'h2', { class: 'fl-title', tabindex: '-1' }, title), text ? h('p', { class: 'fl-desc' }, text) : null, h('div', { class: 'fl-actions' }, actions));
}

export const button = (text: string, onclick: () => void, cls = 'fl-button') => h('button', { type: 'button', class: cls, onclick }, text);

/** The quiz's outcome from the submission's `quiz_results`: the ending matched, its text, the score. */
function quizResults(t: Translate, form: PublicForm, r: SubmittedResponse): { ending: { title?: string; description?: string } | null; rows: HTMLElement | null; score: HTMLElement | null } {
  const q = r.quiz_results;
  if (!q) return { ending: null, rows: null, score: null };
  const endings = (form.snapshot.quiz_settings?.endings ?? []) as Array<{ id: string; title?: string; description?: string }>;
  const ending = endings.find((e) => e.id === q.matched_ending_id) ?? null;
  const score = q.form_mode !== 'match_quiz' ? h('p', { class: 'fl-score' }, `${q.score} / ${q.max_score}`, h('span', { class: 'fl-sr' }, ` ${t('score')}`)) : null;
  // The score is shown large and the ending is the screen's title: the rows add only what those do not say.
  const rows: Array<[string, string]> = [];
  if (q.form_mode === 'knowledge_quiz') rows.push([t('correct_answers'), t('of', { n: q.correct_answers, max: q.total_scorable_questions })]);
  return { ending, score, rows: rows.length ? h('dl', { class: 'fl-results' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]).flat()) : null };
}

/**
 * The screen after submitting: the quiz ending the server matched (its title and description, the score)
 * or the theme's thank-you text, and a Retake button when the quiz allows it (docs/respondents.md).
 */
export function thankYou(tr: Translate, level: 1 | 2, form: PublicForm, r: SubmittedResponse, retake: (() => void) | null, fill: Fill = fallbacksOnly): HTMLElement {
  const t = form.theme;
  const { ending, rows, score } = quizResults(tr, form, r);
  // The theme's default title is the English one: in another language, the page's own words say it.
  const ownTitle = t.thank_you_title && t.thank_you_title !== 'Thank you!' ? t.thank_you_title : null;
  const title = fill(ending?.title) || fill(ownTitle) || tr('thank_you');
  const text = (ending ? fill(ending.description) : fill(t.thank_you_description)) || null;
  const s = screen(level, title, text, retake ? button(tr('retake'), retake) : null);
  const actions = s.lastChild;
  if (score) s.insertBefore(score, actions);
  if (rows) s.insertBefore(rows, actions);
  return s;
}

/** The form's redirect after the thank-you screen (docs/respondents.md), when it has one. */
export function redirectAfter(s: PublicForm['snapshot'], fill: Fill, id: string): void {
  // Recalled values go into the address encoded: an answer cannot change where it leads.
  const to = typeof s.redirect_url === 'string' ? fill(s.redirect_url, encodeURIComponent) : '';
  if (!/^https?:\/\//i.test(to)) return;
  let url: URL;
  try {
    url = new URL(to);
  } catch {
    return;
  }
  if (s.redirect_append_response_id) url.searchParams.set('response_id', id);
  // The element runs in the host's own page (no frame): this navigates that page.
  setTimeout(() => location.assign(url.href), 1500);
}

/** The ids a question's screen names its parts by: the title (it labels the control), description and error. */
export interface QuestionIds {
  title: string;
  desc: string;
  err: string;
}
export const questionIds = (): QuestionIds => ({ title: uid('title'), desc: uid('desc'), err: uid('err') });

/**
 * A question's screen (docs/respondents.md): the part of the form it belongs to (a composite's component), its
 * title with the required mark, its description, the control, the place of its error, and OK (Submit when
 * nothing can follow) with the key that does the same.
 */
export function questionScreen(t: Translate, level: 1 | 2, q: PublicQuestion, part: string | undefined, required: boolean, control: HTMLElement, ids: QuestionIds, last: boolean, next: () => void): HTMLElement {
  const hint = t(q.type === 'long_text' ? 'shift_enter' : 'press_enter');
  return h(
    'section',
    { class: 'fl-q', 'data-type': q.type, 'aria-labelledby': ids.title },
    part ? h('p', { class: 'fl-part' }, part) : null,
    h(level === 1 ? 'h1' : 'h2', { class: 'fl-question', id: ids.title }, q.title, required ? [h('span', { 'aria-hidden': 'true' }, ' *'), h('span', { class: 'fl-sr' }, ` ${t('required')}`)] : null),
    q.description ? h('p', { class: 'fl-desc', id: ids.desc }, q.description) : null,
    control,
    h('p', { class: 'fl-error', id: ids.err, role: 'alert' }),
    h('div', { class: 'fl-actions' }, button(t(last ? 'submit' : 'ok'), next), h('span', { class: 'fl-enter', 'aria-hidden': 'true' }, hint)),
  );
}

/** Says what to fix on the question's screen in `root`, or clears it, marking its field invalid or not. */
export function showProblem(root: HTMLElement, errId: string, text: string | null): void {
  const el = root.querySelector<HTMLElement>(`#${errId}`);
  if (!el) return;
  el.replaceChildren(...(text ? [errorIcon(), h('span', {}, text)] : []));
  const field = root.querySelector('[aria-describedby]');
  if (text) field?.setAttribute('aria-invalid', 'true');
  else field?.removeAttribute('aria-invalid');
}
