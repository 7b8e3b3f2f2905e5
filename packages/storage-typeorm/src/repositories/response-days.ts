import { allSettledOrThrow, type ResponseAnalytics } from '@formloom/core';
import { ResponseDayEntity } from '../tables/response-days';
import type { Db } from '../sql/db';
import { type Dialect, Params } from '../sql/dialect';
import { tableOf } from '../sql/statements';
import { addQuestionDeltas, applyQuestionDeltas, type QuestionDeltas, type QuestionOrder, questionDayStatements, questionOrder, readDropOff } from './question-days';
import { addValueDeltas, applyValueDeltas, deleteValueCounts, type ValueDeltas } from './question-values';
import { addFunnelDeltas, applyFunnelDeltas, deleteFunnelCounts, type FunnelDeltas } from './funnel';
import { answerRows, deleteAnswerIndex, insertAnswerRows } from './answer-index';
import { addPairDeltas, applyPairDeltas, deletePairCounts, type PairDeltas } from './answer-pairs';

/*
 * The analytics rollup (docs/responses-and-webhooks.md, "Analytics"): `response_days` holds, per form and
 * UTC day of `submitted_at`, the counts analytics needs. The response repository changes it in the same
 * transaction as every write to `responses`, by adding signed deltas with one upsert per day: an atomic
 * increment in the database, never a read-modify-write, so concurrent writers (in one process or several)
 * cannot lose an update. Analytics then reads one row per day asked for, whatever the number of responses.
 */

/** PostgreSQL returns bigint and SUM as strings. */
type Num = number | string;

/** The columns of a response the rollup depends on. */
export interface DayKey {
  submitted_at: string;
  completed_at: string | null;
  completion_seconds: Num | null;
  /** The answers' JSON text, for the per-question counters. */
  answers: unknown;
  /** The published version's number, for the funnel. */
  version?: Num | null;
  /** Given for an added response: its answers are then written to the answers index (answer-index.ts). */
  id?: string;
}

interface Delta {
  total: number;
  completed: number;
  seconds_sum: number;
  seconds_count: number;
}

export const rollupStatements = (d: Dialect) => {
  const days = tableOf(d, ResponseDayEntity);
  return {
    table: days,
    /** Adds a delta to one day's row, creating it when missing, as one atomic statement. */
    bump:
      `INSERT INTO ${days} (form_id, day, total, completed, seconds_sum, seconds_count) ` +
      `VALUES (${d.p(1)}, ${d.p(2)}, ${d.p(3)}, ${d.p(4)}, ${d.p(5)}, ${d.p(6)}) ` +
      `ON CONFLICT (form_id, day) DO UPDATE SET total = ${days}.total + excluded.total, ` +
      `completed = ${days}.completed + excluded.completed, seconds_sum = ${days}.seconds_sum + excluded.seconds_sum, ` +
      `seconds_count = ${days}.seconds_count + excluded.seconds_count`,
  };
};

/** `r` with its answers' JSON text parsed (an unreadable text counts as no answers, as every counter reads it). */
function parsedAnswers(r: DayKey): DayKey {
  if (typeof r.answers !== 'string') return r;
  let answers: unknown;
  try {
    answers = JSON.parse(r.answers);
  } catch {
    answers = [];
  }
  return { ...r, answers };
}

/** What a response adds to its day (`sign` 1) or takes from it (`sign` -1). */
function deltaOf(r: DayKey, sign: 1 | -1): Delta {
  const timed = r.completed_at !== null && r.completion_seconds !== null;
  return {
    total: sign,
    completed: r.completed_at !== null ? sign : 0,
    seconds_sum: timed ? sign * Number(r.completion_seconds) : 0,
    seconds_count: timed ? sign : 0,
  };
}

/** The rows' answers parsed once, for every counter below (each takes the text or the list). */
const parsedAll = (rows: DayKey[]) => rows.map(parsedAnswers);

/**
 * Applies the responses `added` and `removed` to the form's days (`response_days`): one upsert per day touched, in
 * day order (concurrent transactions then take the rows' locks in one order on PostgreSQL: no deadlock). Written in
 * the transaction of every change to `responses`: totals and completions are exact when a write is acknowledged.
 */
export async function applyDays(db: Db, d: Dialect, formId: string, added: DayKey[], removed: DayKey[]): Promise<void> {
  const byDay = new Map<string, Delta>();
  const add = (r: DayKey, sign: 1 | -1) => {
    const day = r.submitted_at.slice(0, 10);
    const delta = deltaOf(r, sign);
    const sum = byDay.get(day);
    if (!sum) return void byDay.set(day, delta);
    sum.total += delta.total;
    sum.completed += delta.completed;
    sum.seconds_sum += delta.seconds_sum;
    sum.seconds_count += delta.seconds_count;
  };
  for (const r of added) add(r, 1);
  for (const r of removed) add(r, -1);
  const { bump } = rollupStatements(d);
  const writes: Promise<unknown>[] = [];
  for (const day of [...byDay.keys()].sort()) {
    const s = byDay.get(day)!;
    if (s.total === 0 && s.completed === 0 && s.seconds_sum === 0 && s.seconds_count === 0) continue;
    writes.push(db.run(bump, [formId, day, s.total, s.completed, s.seconds_sum, s.seconds_count]));
  }
  await allSettledOrThrow(writes);
}

/** What responses change in a form's analytics indexes, summed over them: computed in memory, written by `writeIndexes`. */
export interface IndexDeltas {
  questions: QuestionDeltas;
  values: ValueDeltas;
  funnel: FunnelDeltas;
  pairs: PairDeltas;
  /** The answers index's rows of the added responses that have an `id`. */
  indexed: unknown[][];
}

/**
 * The per-question, per-value and funnel counters, the answers index rows (rows of `added` with an `id`) and the pair
 * counts of the responses `added` and `removed`, each summed over the rows. Synchronous and without the database, so
 * the indexer computes a batch's before it takes SQLite's write lock (response-indexer.ts).
 */
export function indexDeltas(formId: string, added: DayKey[], removed: DayKey[], positions: QuestionOrder): IndexDeltas {
  const deltas: IndexDeltas = { questions: new Map(), values: new Map(), funnel: new Map(), pairs: new Map(), indexed: [] };
  for (const [rows, sign] of [[parsedAll(added), 1], [parsedAll(removed), -1]] as const) {
    for (const r of rows) {
      const day = r.submitted_at.slice(0, 10);
      addQuestionDeltas(deltas.questions, day, r.answers, positions, sign);
      addValueDeltas(deltas.values, day, r.answers, positions.kinds, sign);
      addFunnelDeltas(deltas.funnel, r, positions, sign);
      const rows = answerRows({ id: r.id ?? '', form_id: formId, submitted_at: r.submitted_at, answers: r.answers }, positions);
      addPairDeltas(deltas.pairs, r, positions, sign, rows);
      if (sign === 1 && r.id !== undefined) for (const row of rows) deltas.indexed.push(row);
    }
  }
  return deltas;
}

/**
 * Writes `indexDeltas`' result: one multi-row upsert per table (a few for the answers index), sent together: each
 * connection runs them in the order sent, and a write transaction on SQLite is held for fewer round trips.
 */
export async function writeIndexes(db: Db, d: Dialect, formId: string, deltas: IndexDeltas): Promise<void> {
  await allSettledOrThrow([
    applyQuestionDeltas(db, d, formId, deltas.questions),
    applyValueDeltas(db, d, formId, deltas.values),
    applyFunnelDeltas(db, d, formId, deltas.funnel),
    insertAnswerRows(db, d, deltas.indexed),
    applyPairDeltas(db, d, formId, deltas.pairs),
  ]);
}

/**
 * Applies the responses `added` and `removed` to the form's analytics indexes (`indexDeltas`, then `writeIndexes`).
 * Run by a change to a response the indexer has already counted, and by a read catching up (response-indexer.ts).
 * `order` may be read by the caller beforehand (`questionOrder`), alongside its own statements.
 */
export async function applyIndexes(
  db: Db,
  d: Dialect,
  formId: string,
  added: DayKey[],
  removed: DayKey[],
  order?: Promise<QuestionOrder>,
): Promise<void> {
  if (added.length === 0 && removed.length === 0) return;
  const positions = await (order ?? questionOrder(db, d, formId));
  await writeIndexes(db, d, formId, indexDeltas(formId, added, removed, positions));
}

/** Both: the days and the analytics indexes, for a change to responses already counted. */
export async function applyToRollup(db: Db, d: Dialect, formId: string, added: DayKey[], removed: DayKey[]): Promise<void> {
  await allSettledOrThrow([applyDays(db, d, formId, added, removed), applyIndexes(db, d, formId, added, removed)]);
}

/**
 * Recomputes the per-question counters of one form or of all from `responses`, read in keyset pages of
 * 2,000 (constant memory). Call inside a transaction, after `rebuildSql`'s statements.
 */
export async function rebuildQuestionDays(db: Db, d: Dialect, responses: string, formId?: string): Promise<void> {
  const { table } = questionDayStatements(d);
  await db.run(`DELETE FROM ${table}${formId === undefined ? '' : ` WHERE form_id = ${d.p(1)}`}`, formId === undefined ? [] : [formId]);
  await deleteValueCounts(db, d, formId);
  await deleteFunnelCounts(db, d, formId);
  await deleteAnswerIndex(db, d, formId);
  await deletePairCounts(db, d, formId);
  const orders = new Map<string, QuestionOrder>();
  let after: { form_id: string; id: string } | null = null;
  for (;;) {
    const params = new Params(d);
    let where = formId === undefined ? '1 = 1' : `form_id = ${params.bind(formId)}`;
    if (after) where += ` AND (form_id > ${params.bind(after.form_id)} OR (form_id = ${params.bind(after.form_id)} AND id > ${params.bind(after.id)}))`;
    const rows = await db.all<{ form_id: string; id: string; submitted_at: string; answers: unknown; version: Num | null; completed_at: string | null; completion_seconds: Num | null }>(
      `SELECT form_id, id, submitted_at, answers, version, completed_at, completion_seconds FROM ${responses} WHERE ${where} ORDER BY form_id, id LIMIT 2000`,
      params.values,
    );
    if (rows.length === 0) return;
    const byForm = new Map<string, { questions: QuestionDeltas; values: ValueDeltas; funnel: FunnelDeltas; pairs: PairDeltas; indexed: unknown[][] }>();
    for (const r of rows) {
      if (!orders.has(r.form_id)) orders.set(r.form_id, await questionOrder(db, d, r.form_id));
      const deltas = byForm.get(r.form_id) ?? { questions: new Map(), values: new Map(), funnel: new Map(), pairs: new Map(), indexed: [] as unknown[][] };
      byForm.set(r.form_id, deltas);
      const order = orders.get(r.form_id)!;
      addQuestionDeltas(deltas.questions, r.submitted_at.slice(0, 10), r.answers, order, 1);
      addValueDeltas(deltas.values, r.submitted_at.slice(0, 10), r.answers, order.kinds, 1);
      addFunnelDeltas(deltas.funnel, r, order, 1);
      const rows = answerRows(r, order);
      addPairDeltas(deltas.pairs, r, order, 1, rows);
      for (const row of rows) deltas.indexed.push(row);
    }
    for (const [form, deltas] of byForm) {
      await applyQuestionDeltas(db, d, form, deltas.questions);
      await applyValueDeltas(db, d, form, deltas.values);
      await applyFunnelDeltas(db, d, form, deltas.funnel);
      await insertAnswerRows(db, d, deltas.indexed);
      await applyPairDeltas(db, d, form, deltas.pairs);
    }
    const last = rows[rows.length - 1]!;
    after = { form_id: last.form_id, id: last.id };
  }
}

/** The SQL that recomputes the rollup of every form (`formId` undefined) or of one, from `responses`. */
export function rebuildSql(d: Dialect, responses: string, formId?: string): Array<[string, unknown[]]> {
  const { table } = rollupStatements(d);
  const where = formId === undefined ? '' : ` WHERE form_id = ${d.p(1)}`;
  const args = formId === undefined ? [] : [formId];
  const seconds = 'CASE WHEN completed_at IS NOT NULL THEN completion_seconds END';
  return [
    [`DELETE FROM ${table}${where}`, args],
    [
      `INSERT INTO ${table} (form_id, day, total, completed, seconds_sum, seconds_count) ` +
        `SELECT form_id, substr(submitted_at, 1, 10), COUNT(*), COUNT(completed_at), COALESCE(SUM(${seconds}), 0), COUNT(${seconds}) ` +
        `FROM ${responses}${where} GROUP BY form_id, substr(submitted_at, 1, 10)`,
      args,
    ],
  ];
}

interface DayRow {
  day: string;
  total: Num;
  completed: Num;
  seconds_sum: Num | null;
  seconds_count: Num;
}

const START = 'T00:00:00.000Z';
const END = 'T23:59:59.999Z';
const nextDay = (day: string, by: number) => new Date(Date.parse(`${day}${START}`) + by * 86_400_000).toISOString().slice(0, 10);

/**
 * Analytics over `submitted_at` in [since, until]: whole UTC days come from the rollup; a bound inside a
 * day (the API only sends whole days, the port allows any instant) is answered for that day alone from
 * `responses` through IDX_responses_form_submitted, so the cost stays that of the days asked for.
 */
export async function rollupAnalytics(
  db: Db,
  d: Dialect,
  responses: string,
  formId: string,
  since?: string,
  until?: string,
): Promise<ResponseAnalytics> {
  const { table } = rollupStatements(d);
  const rows: DayRow[] = [];
  const edges: QuestionDeltas = new Map();
  let order: Map<string, number> | null = null;
  const scan = async (from: string, to: string) => {
    order ??= await questionOrder(db, d, formId);
    const answered = await db.all<{ submitted_at: string; answers: unknown }>(
      `SELECT submitted_at, answers FROM ${responses} WHERE form_id = ${d.p(1)} AND submitted_at >= ${d.p(2)} AND submitted_at <= ${d.p(3)}`,
      [formId, from, to],
    );
    for (const r of answered) addQuestionDeltas(edges, r.submitted_at.slice(0, 10), r.answers, order, 1);
    const seconds = 'CASE WHEN completed_at IS NOT NULL THEN completion_seconds END';
    rows.push(
      ...(await db.all<DayRow>(
        `SELECT substr(submitted_at, 1, 10) AS day, COUNT(*) AS total, COUNT(completed_at) AS completed, ` +
          `SUM(${seconds}) AS seconds_sum, COUNT(${seconds}) AS seconds_count FROM ${responses} ` +
          `WHERE form_id = ${d.p(1)} AND submitted_at >= ${d.p(2)} AND submitted_at <= ${d.p(3)} GROUP BY substr(submitted_at, 1, 10)`,
        [formId, from, to],
      )),
    );
  };
  let firstDay = since?.slice(0, 10);
  let lastDay = until?.slice(0, 10);
  if (since !== undefined && until !== undefined && since > until) return summarize([], await readDropOff(db, d, formId, null, edges));
  if (firstDay !== undefined && firstDay === lastDay && (!since!.endsWith(START) || !until!.endsWith(END))) {
    await scan(since!, until!);
    return summarize(rows, await readDropOff(db, d, formId, null, edges));
  }
  if (since !== undefined && !since.endsWith(START)) {
    await scan(since, `${firstDay}${END}`);
    firstDay = nextDay(firstDay!, 1);
  }
  if (until !== undefined && !until.endsWith(END)) {
    await scan(`${lastDay}${START}`, until);
    lastDay = nextDay(lastDay!, -1);
  }
  const whole = firstDay === undefined || lastDay === undefined || firstDay <= lastDay;
  if (whole) {
    const params = new Params(d);
    let where = `form_id = ${params.bind(formId)} AND total > 0`;
    if (firstDay !== undefined) where += ` AND day >= ${params.bind(firstDay)}`;
    if (lastDay !== undefined) where += ` AND day <= ${params.bind(lastDay)}`;
    rows.push(...(await db.all<DayRow>(`SELECT day, total, completed, seconds_sum, seconds_count FROM ${table} WHERE ${where}`, params.values)));
  }
  return summarize(rows, await readDropOff(db, d, formId, whole ? { first: firstDay, last: lastDay } : null, edges));
}

/** Days in ascending order with their totals; the average is the exact sum over the count. */
function summarize(rows: DayRow[], questions: ResponseAnalytics['questions']): ResponseAnalytics {
  const result: ResponseAnalytics = { total: 0, completed: 0, average_completion_seconds: null, by_day: [], questions };
  let secondsSum = 0;
  let secondsCount = 0;
  for (const r of [...rows].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))) {
    const entry = { date: r.day, total: Number(r.total), completed: Number(r.completed) };
    if (entry.total === 0) continue;
    result.by_day.push(entry);
    result.total += entry.total;
    result.completed += entry.completed;
    secondsSum += Number(r.seconds_sum ?? 0);
    secondsCount += Number(r.seconds_count);
  }
  if (secondsCount > 0) result.average_completion_seconds = secondsSum / secondsCount;
  return result;
}
