import { timingSafeEqual } from 'node:crypto';
import type { FormRecord, Question, ResponseRecord } from '../domain/types';
import { conflict, FormloomError, notFound } from '../errors';
import { sha256Hex } from '../hashing';
import { isUnanswered } from '../logic/conditions';
import { visiblePath } from '../logic/jumps';
import { UNFILTERABLE_KINDS } from '../responses/filter-ops';
import type { Storage } from '../ports/storage';
import { dataNodeHidden } from './data-runs';

/** The version's questions and logic a step is run against (the snapshot the response answers). */
export interface StepSnapshot {
  questions: Question[];
  start_logic_jumps?: unknown;
  hidden_fields?: string[];
  variables?: Record<string, unknown>;
}

export interface ReachedStep {
  form: FormRecord;
  response: ResponseRecord;
  snapshot: StepSnapshot;
  question: Question;
  /** The stored answers by question id. */
  answers: Record<string, unknown>;
  hidden: Record<string, string>;
  /** The respondent's path up to the step, the step included. */
  path: string[];
}

/**
 * The step `questionId` of `type` that the partial response a resume token opens has reached (docs/logic.md):
 * 404 for an unknown form, response or step, 401 for a wrong token, 409 `step_not_on_path` when the stored
 * answers do not lead to it or leave a required question before it unanswered (the page saves the answers so far before it asks for the step).
 */
export async function reachedStep(storage: Storage, slug: string, responseId: string, token: string | undefined, questionId: string, type: string): Promise<ReachedStep> {
  const form = await storage.forms.findBySlug(slug);
  if (!form) throw notFound('Response');
  const response = await storage.responses.findById(form.id, responseId);
  if (!response || !response.resume_token_hash) throw notFound('Response');
  const given = Buffer.from(sha256Hex(token ?? ''), 'hex');
  if (!token || !timingSafeEqual(given, Buffer.from(response.resume_token_hash, 'hex'))) {
    throw new FormloomError('UNAUTHORIZED', 'X-Resume-Token is missing or does not match this response');
  }
  const version = response.version_id ? await storage.versions.findById(response.version_id) : null;
  const snapshot = (version?.snapshot ?? { questions: [] }) as unknown as StepSnapshot;
  const question = snapshot.questions.find((q) => q.id === questionId && q.type === type);
  if (!question) throw notFound('Step');
  const answers = Object.fromEntries(response.answers.map((a) => [a.question_id, a.value]));
  // What the data nodes passed so far set counts as the page counts it: their fallback paths, their recalls.
  const hidden = { ...response.metadata.hidden, ...(await dataNodeHidden(storage, response.id, snapshot.questions)) } as Record<string, string>;
  const path = visiblePath(snapshot.questions, snapshot.start_logic_jumps, { answers, hidden });
  const at = path.indexOf(question.id);
  // The required questions before the step must be answered: a step runs after them, never ahead.
  const byId = new Map(snapshot.questions.map((q) => [q.id, q]));
  const skipped = path.slice(0, Math.max(at, 0)).filter((id) => byId.get(id)?.required && !UNFILTERABLE_KINDS.includes(byId.get(id)!.type) && isUnanswered(answers[id]));
  if (at < 0 || skipped.length) {
    throw conflict("The response's answers do not lead to this step", { reason: 'step_not_on_path', question_ids: [question.id] });
  }
  return { form, response, snapshot, question, answers, hidden, path: path.slice(0, at + 1) };
}
