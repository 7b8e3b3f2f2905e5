import { h } from './dom.js';
import type { PublicForm, SubmittedResponse } from './types.js';

/** A screen with a heading, optional text and optional actions: welcome, thank-you, closed, errors. */
export function screen(level: 1 | 2, title: string, text: string | null, ...actions: (HTMLElement | null)[]): HTMLElement {
  return h('section', { class: 'fl-screen' }, h(level === 1 ? 'h1' : 'h2', { class: 'fl-title', tabindex: '-1' }, title), text ? h('p', { class: 'fl-desc' }, text) : null, h('div', { class: 'fl-actions' }, actions));
}

export const button = (text: string, onclick: () => void, cls = 'fl-button') => h('button', { type: 'button', class: cls, onclick }, text);

/** The quiz's outcome from the submission's `quiz_results`: score, correct answers, the ending matched. */
function quizResults(form: PublicForm, r: SubmittedResponse): HTMLElement | null {
  const q = r.quiz_results;
  if (!q) return null;
  const endings = (form.snapshot.quiz_settings?.endings ?? []) as Array<{ id: string; title: string }>;
  const ending = endings.find((e) => e.id === q.matched_ending_id);
  const rows: Array<[string, string]> = [];
  if (q.form_mode === 'knowledge_quiz') rows.push(['Correct answers', `${q.correct_answers} of ${q.total_scorable_questions}`]);
  if (q.form_mode !== 'match_quiz') rows.push(['Score', `${q.score} of ${q.max_score}`]);
  if (ending) rows.push(['Your result', ending.title]);
  if (!rows.length) return null;
  return h('dl', { class: 'fl-results' }, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]).flat());
}

export function thankYou(level: 1 | 2, form: PublicForm, r: SubmittedResponse): HTMLElement {
  const t = form.theme;
  const s = screen(level, t.thank_you_title || 'Thank you!', t.thank_you_description || null);
  const results = quizResults(form, r);
  if (results) s.insertBefore(results, s.lastChild);
  return s;
}
