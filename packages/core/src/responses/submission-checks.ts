import { badRequest } from '../errors';
import type { Answer, Question } from '../domain/types';
import { type AnswerContext, checkAnswers } from './answer-validation';
import { visiblePath } from '../logic/jumps';

/*
 * What a submission's body is checked with before anything is stored (docs/respondents.md): its hidden fields
 * against the version's, the questions its answers lead to by the logic jumps, and its answers against those
 * questions. Each refusal is a 400 naming the field. Used by submission-service.ts at a new submission, a partial
 * response's PATCH and a paid response's completion.
 */

/** The hidden field values to keep: only names the version declares (others are a 400 naming them). */
export function hiddenValues(snapshot: Record<string, unknown>, given: Record<string, string> | undefined): Record<string, string> | null {
  if (!given || !Object.keys(given).length) return null;
  const declared = new Set(Array.isArray(snapshot.hidden_fields) ? (snapshot.hidden_fields as string[]) : []);
  for (const name of Object.keys(given)) {
    if (!declared.has(name)) throw badRequest(`hidden.${name}: is not a hidden field of this form`, { field: `hidden.${name}` });
  }
  return given;
}

/** The questions a respondent with these answers was shown, following the snapshot's logic jumps. */
export function shownQuestions(snapshot: { questions: Question[]; start_logic_jumps?: unknown }, answers: Answer[], hidden?: Record<string, string> | null): Set<string> {
  const byId = Object.fromEntries(answers.map((a) => [a.question_id, a.value]));
  return new Set(visiblePath(snapshot.questions, snapshot.start_logic_jumps, { answers: byId, hidden: hidden ?? {} }));
}

/** 400 for an answer given twice, an unknown question, an invalid value, or (when `complete`) a required one missing. */
export function assertAnswers(questions: Question[], answers: Answer[], complete: boolean, ctx: AnswerContext) {
  const seen = new Set<string>();
  const repeated = answers.filter((a) => (seen.has(a.question_id) ? true : (seen.add(a.question_id), false))).map((a) => a.question_id);
  if (repeated.length) throw badRequest('answers: a question is answered twice', { field: 'answers', question_ids: repeated });
  const p = checkAnswers(questions, answers, complete, ctx);
  if (p.unknown.length) throw badRequest('answers: unknown question ids', { field: 'answers', question_ids: p.unknown });
  if (p.invalid.length) {
    const detail = p.invalid.map((i) => `answers.${i.index}.value: ${i.problem}`).join('; ');
    throw badRequest(detail, { field: `answers.${p.invalid[0]!.index}.value`, question_ids: p.invalid.map((i) => i.question_id) });
  }
  if (p.missing.length) throw badRequest('answers: required questions are not answered', { field: 'answers', question_ids: p.missing });
}
