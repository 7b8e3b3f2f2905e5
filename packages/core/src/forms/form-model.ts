import { FORM_OPTION_FIELDS } from '../domain/form-fields';
import type { FormRecord, Question } from '../domain/types';
import type { IdGenerator } from '../ports/id-generator';
import type { QuestionInput } from './form-schemas';
import { GROUP_QUESTION_TYPES, type QuestionType } from './question-types';
import { optionValue } from './presenters';
import type { Snapshot } from './changelog';
import { formLogicProblem, remapJumps, variablesProblem, type RuleProblem } from '../logic/rules';
import { renameQuestionRecalls } from './recall-checks';
import { settleLanguages } from '../translations/translation-settings';

/**
 * Turns validated question inputs into questions in array order. An input keeps its id only when it
 * names one of `existing` (docs/decisions.md, "Forms"); otherwise it is a new question with a new id.
 */
export function buildQuestions(inputs: QuestionInput[], ids: IdGenerator, existing: ReadonlySet<string> = new Set()): Question[] {
  return inputs.map((q, order) => {
    const properties = { ...q.properties };
    if (GROUP_QUESTION_TYPES.includes(q.type as QuestionType) && Array.isArray(properties.questions)) {
      properties.questions = (properties.questions as Array<Record<string, unknown>>).map((sub) => ({
        ...sub,
        id: sub.id ?? ids.id('sq'),
        required: sub.required ?? false,
      }));
    }
    return {
      id: q.id && existing.has(q.id) ? q.id : ids.id('q'),
      type: q.type,
      title: q.title,
      description: q.description,
      required: q.required,
      order,
      properties,
      logic_jumps: q.logic_jumps,
      validations: q.validations,
    };
  });
}

/** Splits option fields of an input into the form's column patch and its `options` bag. */
export function applyOptions(form: Pick<FormRecord, 'theme_color' | 'background_color' | 'options'>, input: Record<string, unknown>) {
  const next = { theme_color: form.theme_color, background_color: form.background_color, options: { ...form.options } };
  for (const f of FORM_OPTION_FIELDS) {
    if (!(f in input) || input[f] === undefined) continue;
    const v = input[f];
    if (f === 'theme_color' || f === 'background_color') next[f] = v as string | null;
    else next.options[f] = v;
  }
  // Languages and translations checked together, owners' edits of machine translations kept (docs/languages.md).
  next.options = settleLanguages(form.options, next.options);
  return next;
}

/** The form state a version freezes: its fields and questions. */
export function snapshotOf(form: FormRecord, questions: Question[]): Snapshot {
  const snap: Record<string, unknown> = { id: form.id, slug: form.slug, title: form.title, description: form.description };
  for (const f of FORM_OPTION_FIELDS) snap[f] = optionValue(form, f);
  snap.questions = questions.map((q) => ({ ...q }));
  return snap as Snapshot;
}


/**
 * Makes jumps and recalls follow new question ids: a jump or a recall may name a question by the id the client
 * sent (an id it made up for a new question), which `buildQuestions` replaced (docs/decisions.md "Logic and
 * validations", "Recall"). `ids` (old to new) is for the form's own texts (renameFormRecalls).
 */
export function linkLogic(inputs: Array<{ id?: string }>, questions: Question[], startJumps: unknown) {
  const ids = new Map<string, string>();
  inputs.forEach((q, i) => {
    if (q.id && questions[i] && q.id !== questions[i].id) ids.set(q.id, questions[i].id);
  });
  return {
    questions: questions.map((q) => renameQuestionRecalls({ ...q, logic_jumps: remapJumps(q.logic_jumps, ids) as unknown[] }, ids)),
    startJumps: remapJumps(startJumps, ids),
    ids,
  };
}

/** The first problem of a form's logic (jumps, validations, variables), for a 400 naming its field. */
export function logicProblem(options: Record<string, unknown>, questions: Question[]): RuleProblem | null {
  return variablesProblem(options.variables) ?? formLogicProblem(options.start_logic_jumps, questions);
}

/**
 * Whether a published version no longer takes responses (docs/decisions.md "Form settings"): its
 * `close_at` has passed, or the form holds `response_limit` responses (partial ones count).
 */
export function isClosed(settings: { close_at?: unknown; response_limit?: unknown }, responseCount: number, now: Date): boolean {
  if (typeof settings.close_at === 'string' && Date.parse(settings.close_at) <= now.getTime()) return true;
  return typeof settings.response_limit === 'number' && responseCount >= settings.response_limit;
}
