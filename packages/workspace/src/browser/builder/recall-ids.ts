import { recallParts, renameRecalls } from '../../../../core/src/logic/recall.js';
import { RECALL_FORM_FIELDS } from '../../../../core/src/logic/recall-texts.js';
import type { Form, Question } from '../../data/forms';

/*
 * Recalls (`{answer.<id>}`) follow a new question's renaming by the first save (form-ids.ts), as jumps do: a
 * draft that moved on while the save ran, or a question held back unfinished, still names the temporary id.
 * Only what changes is replaced, so undo steps keep the other questions as they are.
 */

function renameQuestion(q: Question, ids: ReadonlyMap<string, string>): Question {
  const title = renameRecalls(q.title ?? '', ids);
  const description = typeof q.description === 'string' ? renameRecalls(q.description, ids) : q.description;
  const choices = Array.isArray(q.properties?.choices) ? (q.properties.choices as Array<{ label?: unknown }>) : null;
  const renamed = choices?.map((c) => (typeof c?.label === 'string' && c.label.includes('{answer.') ? { ...c, label: renameRecalls(c.label, ids) } : c));
  const choicesChanged = !!renamed && renamed.some((c, i) => c.label !== choices![i]!.label);
  if (title === (q.title ?? '') && description === q.description && !choicesChanged) return q;
  return { ...q, title, description, ...(choicesChanged ? { properties: { ...q.properties, choices: renamed } } : {}) };
}

/** The form with recalled question ids renamed in its questions' texts and its own (welcome, thank-you, redirect). */
export function renameRecallIds(form: Form, ids: ReadonlyMap<string, string>): Form {
  if (!ids.size) return form;
  const own: Record<string, unknown> = {};
  for (const [field] of RECALL_FORM_FIELDS) {
    const v = (form as Record<string, unknown>)[field];
    if (typeof v === 'string' && v.includes('{answer.')) own[field] = renameRecalls(v, ids);
  }
  return { ...form, ...own, questions: form.questions.map((q) => renameQuestion(q, ids)) };
}

/**
 * A text as a person reads it in the builder's lists (the question list, the logic map): each recall as "@"
 * and what it recalls (the question's title, the hidden field or variable), never the raw token.
 */
export function readableText(text: string, questions: ReadonlyArray<{ id: string; title: string }>): string {
  if (!text.includes('{')) return text;
  return recallParts(text)
    .map((p) => (typeof p === 'string' ? p : p.kind === 'answer' ? `@${questions.find((q) => q.id === p.name)?.title.trim() || 'a deleted question'}` : `@${p.name}`))
    .join('');
}
