import { ResponseAnswerEntity } from '../tables/response-answers';
import type { Db } from '../sql/db';
import type { Dialect } from '../sql/dialect';
import { tableOf, writeRows } from '../sql/statements';
import { answeredOf } from './question-days';
import { valueKeys } from './question-values';

/*
 * The answers index (`response_answers`; docs/responses-and-webhooks.md, "Filtering by answer"): one row
 * per answered question and counted key of a response, written in the same transaction as the response, so
 * a filter by answer seeks an index instead of reading every response's JSON. Deleting a response deletes
 * its rows (a foreign key with ON DELETE CASCADE); a completed partial response has its rows replaced.
 */

const NUMERIC = new Set(['number', 'rating', 'opinion_scale']);

/** What a response's index rows are made of. */
export interface IndexedResponse {
  id: string;
  form_id: string;
  submitted_at: string;
  /** The answers' JSON text as stored (or the parsed array). */
  answers: unknown;
}

/** The index rows of one response: [response_id, question_id, value, form_id, num, submitted_at]. */
export function answerRows(r: IndexedResponse, order: Map<string, number> & { kinds: Map<string, string> }): unknown[][] {
  let list: unknown = r.answers;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      list = [];
    }
  }
  if (!Array.isArray(list)) return [];
  const answered = new Set(answeredOf(list, order).answered);
  const out: unknown[][] = [];
  const seen = new Set<string>();
  for (const a of list as Array<{ question_id?: unknown; value?: unknown }>) {
    if (!a || typeof a.question_id !== 'string' || !answered.has(a.question_id) || seen.has(a.question_id)) continue;
    seen.add(a.question_id);
    const kind = order.kinds.get(a.question_id);
    const keys = valueKeys(kind, a.value);
    const num = kind && NUMERIC.has(kind) && typeof a.value === 'number' && Number.isFinite(a.value) ? a.value : null;
    for (const key of keys.length ? keys : ['']) out.push([r.id, a.question_id, key, r.form_id, num, r.submitted_at]);
  }
  return out;
}

/** Inserts the rows of `responses` (a repeated row is ignored: the keys are the primary key). */
export async function insertAnswerRows(db: Db, d: Dialect, rows: unknown[][]): Promise<void> {
  await writeRows(db, d, ResponseAnswerEntity, ['response_id', 'question_id', 'value', 'form_id', 'num', 'submitted_at'], rows, 'ON CONFLICT DO NOTHING');
}

/** Deletes a response's rows (before its answers are replaced). */
export async function deleteAnswerRows(db: Db, d: Dialect, responseId: string): Promise<void> {
  await db.run(`DELETE FROM ${tableOf(d, ResponseAnswerEntity)} WHERE response_id = ${d.p(1)}`, [responseId]);
}

/** Deletes the index of one form (or of every form) before `formloom analytics rebuild` fills it again. */
export async function deleteAnswerIndex(db: Db, d: Dialect, formId?: string): Promise<void> {
  const table = tableOf(d, ResponseAnswerEntity);
  await db.run(`DELETE FROM ${table}${formId === undefined ? '' : ` WHERE form_id = ${d.p(1)}`}`, formId === undefined ? [] : [formId]);
}
