import type { Question } from '../domain/types';
import { malformedRecalls, parseRecalls, renameRecalls, type Recall } from '../logic/recall';
import type { PublishBlock } from './publish-policy';

/**
 * Where a form's texts may recall answers, hidden fields and variables (docs/decisions.md "Recall"), and the
 * publish checks of those recalls. A text on a question may recall only questions before it; the welcome
 * screen comes before every question, the thank-you screen, quiz endings and the redirect URL after all.
 */

/** A text that may hold recalls: where it is (for messages) and which questions may be recalled in it. */
export interface RecallText {
  text: string;
  /** e.g. "Question 3's title", "The welcome title". */
  place: string;
  /** The question the text belongs to, if any. */
  question_id: string | null;
  /** Questions at positions below this may be recalled (0 on the welcome screen, all after the last one). */
  before: number;
}

/** Form fields holding texts, with their position: `true` after every question, `false` before them. */
export const RECALL_FORM_FIELDS: ReadonlyArray<[string, string, boolean]> = [
  ['welcome_title', 'The welcome title', false],
  ['welcome_description', 'The welcome text', false],
  ['welcome_button_text', "The welcome screen's button", false],
  ['thank_you_title', 'The thank-you title', true],
  ['thank_you_description', 'The thank-you text', true],
  ['redirect_url', 'The redirect URL', true],
];

const str = (v: unknown): v is string => typeof v === 'string' && v.includes('{');
const choicesOf = (q: Question): Array<{ label?: unknown }> => (Array.isArray(q.properties?.choices) ? (q.properties.choices as Array<{ label?: unknown }>) : []);

/** Every text of the form that holds a brace, with where it is. */
export function recallTexts(options: Record<string, unknown>, questions: Question[]): RecallText[] {
  const out: RecallText[] = [];
  const all = questions.length;
  for (const [field, place, after] of RECALL_FORM_FIELDS) {
    if (str(options[field])) out.push({ text: options[field], place, question_id: null, before: after ? all : 0 });
  }
  const endings = (options.quiz_settings as { endings?: unknown } | null | undefined)?.endings;
  if (Array.isArray(endings)) {
    for (const e of endings as Array<Record<string, unknown>>) {
      for (const f of ['title', 'description']) if (str(e?.[f])) out.push({ text: e[f] as string, place: `A quiz ending's ${f}`, question_id: null, before: all });
    }
  }
  questions.forEach((q, i) => {
    const at = `Question ${i + 1}'s`;
    if (str(q.title)) out.push({ text: q.title, place: `${at} title`, question_id: q.id, before: i });
    if (str(q.description)) out.push({ text: q.description, place: `${at} description`, question_id: q.id, before: i });
    choicesOf(q).forEach((c, n) => str(c?.label) && out.push({ text: c.label, place: `${at} choice ${n + 1}`, question_id: q.id, before: i }));
  });
  return out;
}

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

/** The names recalled with `{var.*}` in any text, for the public view (variables are private otherwise). */
export function recalledVariables(options: Record<string, unknown>, questions: Question[]): string[] {
  const names = recallTexts(options, questions).flatMap((t) => parseRecalls(t.text).filter((r) => r.kind === 'var').map((r) => r.name));
  return [...new Set(names)];
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
  };
}

/** The form's texts with recalled ids renamed, as `renameQuestionRecalls` for its own fields. */
export function renameFormRecalls(options: Record<string, unknown>, ids: ReadonlyMap<string, string>): Record<string, unknown> {
  if (!ids.size) return options;
  const out = { ...options };
  for (const [field] of RECALL_FORM_FIELDS) if (typeof out[field] === 'string') out[field] = renameRecalls(out[field] as string, ids);
  return out;
}
