import type { QuestionValueCount } from '@formloom/core';
import { QuestionValueEntity } from '../tables/question-values';
import type { Db } from '../sql/db';
import { type Dialect, Params } from '../sql/dialect';
import { tableOf, writeRows } from '../sql/statements';

/*
 * Answer distributions (docs/responses-and-webhooks.md, "Question summaries"): per form, UTC day, question
 * and value, how many responses gave that value. Only question types with a bounded set of values are
 * counted (choices, yes/no, dropdown, rating, opinion scale, dates, and numbers rounded to 3 significant
 * digits, which bounds a number question to about 2,700 keys per day whatever is typed). Kept in step with
 * `responses` by the same signed upsert-increments as `question_days`, in the same transaction, so a summary
 * reads one row per (question, value) — per day too when a date range is asked — and never a response.
 */

type Num = number | string;

/** Longest value key kept: a choice label is at most 500 characters; "other" answers are cut here. */
const MAX_KEY = 200;

/** The counted keys of one answer, by question type; [] for types summarized otherwise (text, files, groups). */
export function valueKeys(type: string | undefined, value: unknown): string[] {
  switch (type) {
    case 'yes_no':
      return typeof value === 'boolean' ? [String(value)] : [];
    case 'multiple_choice':
    case 'dropdown': {
      const list = Array.isArray(value) ? value : [value];
      return [...new Set(list.filter((v): v is string => typeof v === 'string' && v !== '').map((v) => v.slice(0, MAX_KEY)))];
    }
    case 'rating':
    case 'opinion_scale':
      return typeof value === 'number' && Number.isFinite(value) ? [String(value)] : [];
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? [String(Number(value.toPrecision(3)))] : [];
    case 'date':
      return typeof value === 'string' && value !== '' ? [value.slice(0, 10)] : [];
    default:
      return [];
  }
}

/**
 * The `day` of the all-time rows: each count is kept under its UTC day (for date ranges) and under this key,
 * so a summary of a form's whole life reads one row per (question, value), not one per day as well. It sorts
 * before every YYYY-MM-DD, and ranged reads exclude it.
 */
export const ALL_TIME = '*';

/** Count deltas keyed by `day \u0000 question \u0000 value`. */
export type ValueDeltas = Map<string, number>;

export function addValueDeltas(into: ValueDeltas, day: string, answers: unknown, kinds: Map<string, string>, sign: 1 | -1) {
  let list: unknown = answers;
  if (typeof answers === 'string') {
    try {
      list = JSON.parse(answers);
    } catch {
      list = [];
    }
  }
  if (!Array.isArray(list)) return;
  for (const a of list as Array<{ question_id?: unknown; value?: unknown }>) {
    if (!a || typeof a.question_id !== 'string') continue;
    for (const key of valueKeys(kinds.get(a.question_id), a.value)) {
      for (const d of [day, ALL_TIME]) {
        const k = `${d}\u0000${a.question_id}\u0000${key}`;
        into.set(k, (into.get(k) ?? 0) + sign);
      }
    }
  }
}

/** Applies the deltas in key order (one lock order across transactions), skipping zero ones. */
export async function applyValueDeltas(db: Db, d: Dialect, formId: string, deltas: ValueDeltas): Promise<void> {
  const table = tableOf(d, QuestionValueEntity);
  const rows: unknown[][] = [];
  for (const key of [...deltas.keys()].sort()) {
    const n = deltas.get(key)!;
    if (n === 0) continue;
    const [day, question, value] = key.split('\u0000') as [string, string, string];
    rows.push([formId, day, question, value, n]);
  }
  await writeRows(
    db, d, QuestionValueEntity, ['form_id', 'day', 'question_id', 'value', 'count'], rows,
    `ON CONFLICT (form_id, day, question_id, value) DO UPDATE SET count = ${table}.count + excluded.count`,
  );
}

export async function deleteValueCounts(db: Db, d: Dialect, formId?: string): Promise<void> {
  const table = tableOf(d, QuestionValueEntity);
  await db.run(`DELETE FROM ${table}${formId === undefined ? '' : ` WHERE form_id = ${d.p(1)}`}`, formId === undefined ? [] : [formId]);
}

/** Counts per question and value over the whole UTC days [firstDay, lastDay] (either open). */
export async function readValueCounts(db: Db, d: Dialect, formId: string, firstDay?: string, lastDay?: string): Promise<QuestionValueCount[]> {
  const table = tableOf(d, QuestionValueEntity);
  const params = new Params(d);
  let where = `form_id = ${params.bind(formId)}`;
  if (firstDay === undefined && lastDay === undefined) where += ` AND day = ${params.bind(ALL_TIME)}`;
  else where += ` AND day <> ${params.bind(ALL_TIME)}`;
  if (firstDay !== undefined) where += ` AND day >= ${params.bind(firstDay)}`;
  if (lastDay !== undefined) where += ` AND day <= ${params.bind(lastDay)}`;
  const rows = await db.all<{ question_id: string; value: string; n: Num }>(
    `SELECT question_id, value, SUM(count) AS n FROM ${table} WHERE ${where} GROUP BY question_id, value`,
    params.values,
  );
  return rows.map((r) => ({ question_id: r.question_id, value: r.value, count: Number(r.n) })).filter((r) => r.count > 0);
}

const DAY_MS = 86_400_000;

/** Counts of `questionIds` summed per range of days: the days are listed, so each is a primary-key seek. */
export async function readRangeValueCounts(
  db: Db,
  d: Dialect,
  formId: string,
  questionIds: string[],
  ranges: Array<{ first: string; last: string }>,
): Promise<Array<QuestionValueCount & { range: number }>> {
  const days: string[] = [];
  for (const r of ranges) {
    for (let t = Date.parse(`${r.first}T00:00:00Z`); t <= Date.parse(`${r.last}T00:00:00Z`); t += DAY_MS) days.push(new Date(t).toISOString().slice(0, 10));
  }
  if (!questionIds.length || !days.length) return [];
  const table = tableOf(d, QuestionValueEntity);
  const params = new Params(d);
  const which = `CASE ${ranges.map((r, i) => `WHEN day <= ${params.bind(r.last)} THEN ${i}`).join(' ')} END`;
  const where = `form_id = ${params.bind(formId)} AND day IN (${params.list(days)}) AND question_id IN (${params.list(questionIds)})`;
  const rows = await db.all<{ r: Num; question_id: string; value: string; n: Num }>(
    `SELECT ${which} AS r, question_id, value, SUM(count) AS n FROM ${table} WHERE ${where} GROUP BY 1, question_id, value`,
    params.values,
  );
  return rows.map((x) => ({ range: Number(x.r), question_id: x.question_id, value: x.value, count: Number(x.n) })).filter((x) => x.count > 0);
}
