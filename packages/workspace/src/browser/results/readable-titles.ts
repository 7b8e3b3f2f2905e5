import { readableText } from '../builder/recall-ids';
import type { Funnel } from '../../data/results';

/*
 * Results name questions as the owner reads them in the builder: a recall (`{answer.<id>|fallback}`) as "@"
 * and the question it names, never the raw token (docs/workspace.md, "Recall"). The raw token also has no
 * place to break, and pushed the summary 50 px past a phone's width.
 */

/** Questions (by `id`) or summaries (by `question_id`, with their group's sub-questions) with readable titles. */
export function readableTitles<Q extends { title: string; sub_questions?: unknown }>(
  list: Q[],
  idOf: (q: Q) => string = (q) => (q as unknown as { id: string }).id,
  outer: ReadonlyArray<{ id: string; title: string }> = [],
): Q[] {
  const named = [...outer, ...list.map((q) => ({ id: idOf(q), title: q.title }))];
  return list.map((q) => {
    const subs = Array.isArray(q.sub_questions) ? { sub_questions: readableTitles(q.sub_questions as Q[], idOf, named) } : {};
    return q.title.includes('{') || 'sub_questions' in subs ? { ...q, title: readableText(q.title, named), ...subs } : q;
  });
}

/** The funnel's question steps, whose labels are the counted version's titles. */
export function readableFunnel(f: Funnel): Funnel {
  const named = f.steps.flatMap((s) => (s.question_id ? [{ id: s.question_id, title: s.label }] : []));
  return { ...f, steps: f.steps.map((s) => (s.kind === 'question' && s.label.includes('{') ? { ...s, label: readableText(s.label, named) } : s)) };
}
