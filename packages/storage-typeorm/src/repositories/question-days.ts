import type { QuestionDropOff } from '@formloom/core';
import { QuestionEntity } from '../tables/form-content';
import { QuestionDayEntity } from '../tables/question-days';
import type { Db } from '../sql/db';
import { type Dialect, Params } from '../sql/dialect';
import { tableOf, writeRows } from '../sql/statements';

/*
 * Per-question drop-off (docs/responses-and-webhooks.md, "Drop-off"): per form, UTC day and question,
 * how many responses answered it and how many stopped there (their furthest answered question, by the
 * questions' positions when the response was written). "Reached" is then, in the current order, the sum
 * of `furthest` over the question and every later one. Kept in step with `responses` by the same atomic
 * upsert-increments as the day rollup (response-days.ts), in the same transaction.
 */

type Num = number | string;

export const questionDayStatements = (d: Dialect) => {
  const table = tableOf(d, QuestionDayEntity);
  return {
    table,
    questions: tableOf(d, QuestionEntity),
    /** The upsert-increment of the counters (a response touches one per question it answered). */
    bumpTail:
      `ON CONFLICT (form_id, day, question_id) DO UPDATE SET answered = ${table}.answered + excluded.answered, ` +
      `furthest = ${table}.furthest + excluded.furthest`,
  };
};

const isAnswered = (v: unknown) =>
  v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0) &&
  !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0);

/** The question ids a response's stored answers (JSON text) answer, and the furthest of them by `order`. */
export function answeredOf(answers: unknown, order: Map<string, number>): { answered: string[]; furthest: string | null } {
  let list: unknown = answers;
  if (typeof answers === 'string') {
    try {
      list = JSON.parse(answers);
    } catch {
      list = [];
    }
  }
  const answered = new Set<string>();
  if (Array.isArray(list)) {
    for (const a of list as Array<{ question_id?: unknown; value?: unknown }>) {
      if (a && typeof a.question_id === 'string' && isAnswered(a.value)) answered.add(a.question_id);
    }
  }
  let furthest: string | null = null;
  for (const q of answered) {
    const pos = order.get(q);
    if (pos !== undefined && (furthest === null || pos > order.get(furthest)!)) furthest = q;
  }
  return { answered: [...answered], furthest };
}

/** Question positions by id, and their types (`kinds`, for the answer distributions: question-values.ts). */
export class QuestionOrder extends Map<string, number> {
  readonly kinds = new Map<string, string>();
}

export async function questionOrder(db: Db, d: Dialect, formId: string): Promise<QuestionOrder> {
  const { questions } = questionDayStatements(d);
  const rows = await db.all<{ id: string; sort_order: Num; type: string }>(`SELECT id, sort_order, type FROM ${questions} WHERE form_id = ${d.p(1)}`, [formId]);
  const order = new QuestionOrder();
  for (const r of rows) {
    order.set(r.id, Number(r.sort_order));
    order.kinds.set(r.id, r.type);
  }
  return order;
}

/** Counter deltas keyed by `day \u0000 question`, for responses added (+1) or removed (-1). */
export type QuestionDeltas = Map<string, { answered: number; furthest: number }>;

export function addQuestionDeltas(into: QuestionDeltas, day: string, answers: unknown, order: Map<string, number>, sign: 1 | -1) {
  const { answered, furthest } = answeredOf(answers, order);
  const bump = (q: string, field: 'answered' | 'furthest') => {
    const key = `${day}\u0000${q}`;
    const e = into.get(key) ?? { answered: 0, furthest: 0 };
    e[field] += sign;
    into.set(key, e);
  };
  for (const q of answered) bump(q, 'answered');
  if (furthest !== null) bump(furthest, 'furthest');
}

/**
 * Applies the deltas in key order (a fixed lock order across transactions), skipping zero ones: one
 * statement for a response's questions rather than one per question, so a submission's transaction stays short.
 */
export async function applyQuestionDeltas(db: Db, d: Dialect, formId: string, deltas: QuestionDeltas): Promise<void> {
  const { bumpTail } = questionDayStatements(d);
  const rows: unknown[][] = [];
  for (const key of [...deltas.keys()].sort()) {
    const e = deltas.get(key)!;
    if (e.answered === 0 && e.furthest === 0) continue;
    const [day, question] = key.split('\u0000') as [string, string];
    rows.push([formId, day, question, e.answered, e.furthest]);
  }
  await writeRows(db, d, QuestionDayEntity, ['form_id', 'day', 'question_id', 'answered', 'furthest'], rows, bumpTail);
}

/**
 * Drop-off over the whole days [firstDay, lastDay] (either open) plus `extra` deltas (the partial days at
 * the range's edges, counted from their responses), for the form's current questions in order.
 */
export async function readDropOff(
  db: Db,
  d: Dialect,
  formId: string,
  days: { first?: string; last?: string } | null,
  extra: QuestionDeltas,
): Promise<QuestionDropOff[]> {
  const { table, questions } = questionDayStatements(d);
  const sums = new Map<string, { answered: number; furthest: number }>();
  const add = (q: string, answered: number, furthest: number) => {
    const e = sums.get(q) ?? { answered: 0, furthest: 0 };
    e.answered += answered;
    e.furthest += furthest;
    sums.set(q, e);
  };
  if (days) {
    const params = new Params(d);
    let where = `form_id = ${params.bind(formId)}`;
    if (days.first !== undefined) where += ` AND day >= ${params.bind(days.first)}`;
    if (days.last !== undefined) where += ` AND day <= ${params.bind(days.last)}`;
    const rows = await db.all<{ question_id: string; answered: Num; furthest: Num }>(
      `SELECT question_id, SUM(answered) AS answered, SUM(furthest) AS furthest FROM ${table} WHERE ${where} GROUP BY question_id`,
      params.values,
    );
    for (const r of rows) add(r.question_id, Number(r.answered), Number(r.furthest));
  }
  for (const [key, e] of extra) add(key.split('\u0000')[1]!, e.answered, e.furthest);
  const order = await db.all<{ id: string }>(`SELECT id FROM ${questions} WHERE form_id = ${d.p(1)} ORDER BY sort_order, id`, [formId]);
  const out: QuestionDropOff[] = [];
  let reached = 0;
  for (let i = order.length - 1; i >= 0; i--) {
    const s = sums.get(order[i]!.id) ?? { answered: 0, furthest: 0 };
    reached += s.furthest;
    out.unshift({ question_id: order[i]!.id, reached, answered: s.answered });
  }
  return out;
}
