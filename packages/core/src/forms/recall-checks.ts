import type { PublishBlock, Question } from '../domain/types';
import { malformedRecalls, parseRecalls, renameRecalls, type Recall } from '../logic/recall';
import { RECALL_FORM_FIELDS, choicesOf, recallTexts, stepTexts, type RecallText } from '../logic/recall-texts';

import { renameTranslationPaths } from '../translations/translatable-texts';

/**
 * The publish checks of recalls (docs/decisions.md "Recall"), and recalled ids following new question ids.
 * Where texts are and what each may recall: ../logic/recall-texts.ts.
 */

interface Finding {
  reason: string;
  message: string;
  question_id: string | null;
}

/** Checks run in this order; the first reason found is reported (with every question failing it). */
const REASONS = ['recall_malformed', 'recall_deleted_question', 'recall_later_question', 'recall_unknown_hidden_field', 'recall_unknown_variable'];

function findings(t: RecallText, index: ReadonlyMap<string, number>, questions: Question[], hidden: Set<string>, variables: Set<string>): Finding[] {
  const out: Finding[] = [];
  const add = (reason: string, message: string) => out.push({ reason, message, question_id: t.question_id });
  for (const bad of malformedRecalls(t.text)) {
    add('recall_malformed', `${t.place} has "${bad}", which is not a recall: write {answer.<question id>}, {hidden.<name>} or {var.<name>}, with an optional |fallback`);
  }
  for (const r of parseRecalls(t.text)) add(...check(r, t, index, questions, hidden, variables));
  return out.filter((f) => f.reason);
}

function check(r: Recall, t: RecallText, index: ReadonlyMap<string, number>, questions: Question[], hidden: Set<string>, variables: Set<string>): [string, string] {
  if (r.kind === 'hidden') return hidden.has(r.name) ? ['', ''] : ['recall_unknown_hidden_field', `${t.place} recalls the hidden field ${r.name}, which the form does not declare`];
  if (r.kind === 'var') return variables.has(r.name) ? ['', ''] : ['recall_unknown_variable', `${t.place} recalls the variable ${r.name}, which the form does not have`];
  const at = index.get(r.name);
  if (at === undefined) return ['recall_deleted_question', `${t.place} recalls a question that is no longer in the form (${r.name}); remove the recall or choose another question`];
  if (at < t.before) return ['', ''];
  const title = questions[at]!.title;
  const which = questions[at]!.id === t.question_id ? 'itself' : `question ${at + 1} ("${title}"), which comes later`;
  const where = t.before === 0 && t.question_id === null ? '; no answer is given before the welcome screen' : '; a text can recall only answers given before it';
  return ['recall_later_question', `${t.place} recalls ${which}${where}`];
}

/** The recall publish check: null when every recall names something the respondent has by then. */
export function recallBlock(options: Record<string, unknown>, questions: Question[]): PublishBlock | null {
  const texts = recallTexts(options, questions);
  if (!texts.length) return null;
  const index = new Map(questions.map((q, i) => [q.id, i]));
  const hidden = new Set(Array.isArray(options.hidden_fields) ? (options.hidden_fields as string[]) : []);
  const vars = options.variables && typeof options.variables === 'object' ? Object.keys(options.variables) : [];
  const all = texts.flatMap((t) => findings(t, index, questions, hidden, new Set(vars)));
  for (const reason of REASONS) {
    const found = all.filter((f) => f.reason === reason);
    if (!found.length) continue;
    const ids = [...new Set(found.map((f) => f.question_id).filter((x): x is string => !!x))];
    return { reason, message: found[0]!.message, question_ids: ids, upgrade_required: false };
  }
  return null;
}

/** An email step's, data node's or Fuse question's texts with recalled ids renamed (docs/logic.md). */
function renameStepRecalls(p: Record<string, unknown>, ids: ReadonlyMap<string, string>): Record<string, unknown> {
  const out = { ...p };
  for (const f of ['recipient', 'subject', 'body']) if (typeof out[f] === 'string') out[f] = renameRecalls(out[f] as string, ids);
  for (const f of ['params', 'hidden_fields']) {
    if (out[f] && typeof out[f] === 'object') out[f] = Object.fromEntries(Object.entries(out[f] as Record<string, string>).map(([k, v]) => [k, typeof v === 'string' ? renameRecalls(v, ids) : v]));
  }
  return out;
}

/** A question's texts with recalled ids renamed (a new question's id given by the client, then the service's). */
export function renameQuestionRecalls(q: Question, ids: ReadonlyMap<string, string>): Question {
  if (!ids.size) return q;
  const choices = choicesOf(q);
  const renamed = choices.map((c) => (typeof c?.label === 'string' ? { ...c, label: renameRecalls(c.label, ids) } : c));
  return {
    ...q,
    title: renameRecalls(q.title, ids),
    description: typeof q.description === 'string' ? renameRecalls(q.description, ids) : q.description,
    ...(choices.length ? { properties: { ...q.properties, choices: renamed } } : {}),
    ...(stepTexts(q).length ? { properties: renameStepRecalls(q.properties, ids) } : {}),
  };
}

/** The form's texts with recalled ids renamed, as `renameQuestionRecalls` for its own fields. */
export function renameFormRecalls(options: Record<string, unknown>, ids: ReadonlyMap<string, string>): Record<string, unknown> {
  if (!ids.size) return options;
  const out = { ...options };
  for (const [field] of RECALL_FORM_FIELDS) if (typeof out[field] === 'string') out[field] = renameRecalls(out[field] as string, ids);
  // Translations name questions by id too (docs/languages.md "Paths").
  return renameTranslationPaths(out, ids);
}
