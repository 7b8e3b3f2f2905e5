import type { AnswerTest, QuestionDropOff, QuestionValueCount, ResponseAnalytics, ResponseFilter } from '@formloom/core';
import { AnswerPairEntity } from '../tables/answer-pairs';
import { ResponseDayEntity } from '../tables/response-days';
import { ResponseIndexQueueEntity } from '../tables/response-index-queue';
import type { Db } from '../sql/db';
import { type Dialect, Params } from '../sql/dialect';
import { tableOf, writeRows } from '../sql/statements';
import { answerRows } from './answer-index';
import { answeredOf, type QuestionOrder } from './question-days';
import { ALL_TIME } from './question-values';
import { QuestionValueEntity } from '../tables/question-values';

/*
 * Filtered summaries from pair counts (docs/responses-and-webhooks.md, "Filtering by answer"; docs/decisions.md,
 * "Filtered summaries from pair counts"). For each choice-like answer a response gives (the filter side: a
 * dropdown, multiple choice, yes/no, rating or opinion scale key), `answer_pairs` counts what the same response
 * answered (a row per key of every question) and, in one row per day and shape, its completion and time, the
 * question it stopped at and its answers without exactly one key (text, several choices). A summary under one such filter then adds up a few hundred counters instead of reading a
 * sixth of a million responses. Kept like the other rollups: signed deltas summed over the transaction's
 * responses, applied as multi-row upsert-increments in key order, in the same transaction.
 */

type Num = number | string;

/** Question kinds whose keys a filter may be served from (bounded key sets, so the counters stay bounded). */
const PAIR_KINDS = new Set(['dropdown', 'multiple_choice', 'yes_no', 'rating', 'opinion_scale']);
/** Kinds with one key per answer: a test naming several keys counts each response once. */
const SINGLE_KEY = new Set(['dropdown', 'yes_no', 'rating', 'opinion_scale']);
/** The row that counts every response counted here (all four keys ''): the read's check that none is missing. */
const COVERAGE_FILTER = '\u0000';
const COVERAGE_TARGET = '\u0000\u0000';

interface PairDelta {
  n: number;
  completed: number;
  seconds_sum: number;
  seconds_count: number;
}

/**
 * Deltas keyed by the filter side (`question \u0000 value`), then by the target side (`\u0000 target \u0000 target
 * value`, or a day row's `\u0000\u0000 day ...`): a response bumps tens of counters, and one lookup in each map with
 * strings it built once costs less than hashing a joined key per counter (docs/benchmarks.md, "The analytics indexer").
 */
export type PairDeltas = Map<string, Map<string, PairDelta>>;

/** What the pair counts need of a response (response-days.ts's DayKey has it). */
export interface PairSource {
  submitted_at: string;
  completed_at: string | null;
  completion_seconds: Num | null;
  answers: unknown;
}

function bump(into: Map<string, PairDelta>, key: string, n: number, completed = 0, secondsSum = 0, secondsCount = 0) {
  const e = into.get(key);
  if (!e) return void into.set(key, { n, completed, seconds_sum: secondsSum, seconds_count: secondsCount });
  e.n += n;
  e.completed += completed;
  e.seconds_sum += secondsSum;
  e.seconds_count += secondsCount;
}

/** The counters of one filter side, made when first bumped. */
function sideOf(into: PairDeltas, filter: string): Map<string, PairDelta> {
  let side = into.get(filter);
  if (!side) into.set(filter, (side = new Map()));
  return side;
}

/**
 * Adds what one response counts (`sign` 1) or takes back (`sign` -1). `indexRows`: the response's answers index rows
 * when the caller made them already (`answerRows`, whatever its id and form), so they are not made twice.
 */
export function addPairDeltas(into: PairDeltas, r: PairSource, order: QuestionOrder, sign: 1 | -1, indexRows?: unknown[][]): void {
  bump(sideOf(into, COVERAGE_FILTER), COVERAGE_TARGET, sign);
  let list: unknown = r.answers;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list);
    } catch {
      list = [];
    }
  }
  // The answers index's own rows (answer-index.ts), so the counters and the scan agree on every answer.
  const keysOf = new Map<string, string[]>();
  for (const row of indexRows ?? answerRows({ id: '', form_id: '', submitted_at: r.submitted_at, answers: list }, order)) {
    const q = row[1] as string;
    const keys = keysOf.get(q) ?? [];
    if (row[2] !== '') keys.push(row[2] as string);
    keysOf.set(q, keys);
  }
  const filters: string[] = [];
  for (const [q, keys] of keysOf) if (PAIR_KINDS.has(order.kinds.get(q) ?? '')) for (const k of keys) filters.push(`${q}\u0000${k}`);
  if (!filters.length) return;
  // The day row carries what else the response's summary needs, so it costs no rows of its own: where it stopped,
  // and each answer without exactly one key with its number of keys (answered = keys' responses + 1 - keys).
  const { furthest } = answeredOf(list, order);
  const odd: string[] = [];
  for (const [t, keys] of keysOf) if (keys.length !== 1) odd.push(`\u0001${t}\u0002${keys.length}`);
  const dayRow = `\u0000\u0000${r.submitted_at.slice(0, 10)}\u0001${furthest ?? ''}${odd.sort().join('')}`;
  const timed = r.completed_at !== null && r.completion_seconds !== null;
  const seconds = timed ? Number(r.completion_seconds) : 0;
  const targets: string[] = [];
  for (const [t, keys] of keysOf) for (const k of keys) targets.push(`\u0000${t}\u0000${k}`);
  for (const f of filters) {
    const side = sideOf(into, f);
    bump(side, dayRow, sign, r.completed_at !== null ? sign : 0, sign * seconds, timed ? sign : 0);
    for (const x of targets) bump(side, x, sign);
  }
}

/** Applies the deltas, skipping zero ones. */
export async function applyPairDeltas(db: Db, d: Dialect, formId: string, deltas: PairDeltas): Promise<void> {
  const table = tableOf(d, AnswerPairEntity);
  const rows: unknown[][] = [];
  for (const [filter, side] of deltas) {
    for (const [target, e] of side) {
      if (!e.n && !e.completed && !e.seconds_sum && !e.seconds_count) continue;
      rows.push([formId, ...(filter + target).split('\u0000'), e.n, e.completed, e.seconds_sum, e.seconds_count]);
    }
  }
  // In key order on PostgreSQL, so concurrent transactions lock rows in one order; SQLite has one writer.
  if (d.kind === 'postgres') rows.sort(byKey);
  const cols = ['n', 'completed', 'seconds_sum', 'seconds_count'];
  await writeRows(
    db, d, AnswerPairEntity, ['form_id', 'question_id', 'value', 'target_id', 'target_value', ...cols], rows,
    `ON CONFLICT (form_id, question_id, value, target_id, target_value) DO UPDATE SET ${cols.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(', ')}`,
  );
}

/** Rows `[form, question, value, target, target value, ...]` in the order of their four key columns. */
function byKey(a: unknown[], b: unknown[]): number {
  for (let i = 1; i <= 4; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export async function deletePairCounts(db: Db, d: Dialect, formId?: string): Promise<void> {
  const table = tableOf(d, AnswerPairEntity);
  await db.run(`DELETE FROM ${table}${formId === undefined ? '' : ` WHERE form_id = ${d.p(1)}`}`, formId === undefined ? [] : [formId]);
}

/** The keys of `test`'s question that select the same responses as the test, or null when counters cannot answer it. */
async function keysOfTest(db: Db, d: Dialect, formId: string, t: AnswerTest, kind: string): Promise<string[] | null> {
  if (!PAIR_KINDS.has(kind)) return null;
  if (t.via === 'key' && t.op === 'equals') return [t.values[0]!];
  if (t.via === 'key' && t.op === 'is_any_of') return SINGLE_KEY.has(kind) || t.values.length === 1 ? t.values : null;
  const compare = numberTest(t);
  if (!compare && !(t.via === 'presence' && t.op === 'is_answered')) return null;
  if (!SINGLE_KEY.has(kind)) return null;
  // The keys the question has ever been given (question_values' all-time rows), tested one by one.
  const keys = await db.all<{ value: string }>(
    `SELECT value FROM ${tableOf(d, QuestionValueEntity)} WHERE form_id = ${d.p(1)} AND day = ${d.p(2)} AND question_id = ${d.p(3)} AND count > 0`,
    [formId, ALL_TIME, t.question_id],
  );
  return keys.map((k) => k.value).filter((k) => !compare || compare(Number(k)));
}

function numberTest(t: AnswerTest): ((n: number) => boolean) | null {
  if (t.via !== 'num') return null;
  const [a, b] = t.values.map(Number) as [number, number];
  switch (t.op) {
    case 'equals':
      return (n) => n === a;
    case 'is_any_of':
      return (n) => t.values.map(Number).includes(n);
    case 'greater_than':
      return (n) => n > a;
    case 'less_than':
      return (n) => n < a;
    case 'greater_or_equal':
      return (n) => n >= a;
    case 'less_or_equal':
      return (n) => n <= a;
    case 'between':
      return (n) => n >= a && n <= b;
    default:
      return null;
  }
}

/**
 * The summary of one choice-like test from the pair counts, or null when they cannot give it: more than one
 * test, another filter (dates, completion, version, language, search), a kind or operator they do not cover,
 * or a form whose responses are not all counted (stored before the counters existed, until `formloom
 * analytics rebuild`). `order` is the form's current questions in order (drop-off is by the current order).
 */
export async function pairSummary(
  db: Db,
  d: Dialect,
  formId: string,
  filter: ResponseFilter,
  order: Array<{ id: string; type: string }>,
): Promise<{ analytics: ResponseAnalytics; values: QuestionValueCount[] } | null> {
  const f = filter;
  if (f.since !== undefined || f.until !== undefined || f.completed !== undefined || f.search !== undefined || f.version !== undefined || f.language !== undefined) return null;
  if (!f.answers || f.answers.tests.length !== 1) return null;
  const test = f.answers.tests[0]!;
  const kind = order.find((q) => q.id === test.question_id)?.type;
  if (!kind) return null;
  const table = tableOf(d, AnswerPairEntity);
  // Every response counted: the coverage row equals the responses stored less those still queued for the indexer
  // (response-indexer.ts; submitted since the read caught up), read in one statement so in one snapshot.
  const [keys, [coverage]] = await Promise.all([
    keysOfTest(db, d, formId, test, kind),
    db.all<{ counted: Num | null; total: Num | null; queued: Num }>(
      `SELECT (SELECT n FROM ${table} WHERE form_id = ${d.p(1)} AND question_id = '' AND value = '' AND target_id = '' AND target_value = '') AS counted, ` +
        `(SELECT SUM(total) FROM ${tableOf(d, ResponseDayEntity)} WHERE form_id = ${d.p(1)}) AS total, ` +
        `(SELECT COUNT(*) FROM ${tableOf(d, ResponseIndexQueueEntity)} WHERE form_id = ${d.p(1)}) AS queued`,
      [formId],
    ),
  ]);
  if (keys === null || Number(coverage?.counted ?? 0) !== Number(coverage?.total ?? 0) - Number(coverage?.queued ?? 0)) return null;
  const rows = keys.length
    ? await (() => {
        const params = new Params(d);
        const where = `form_id = ${params.bind(formId)} AND question_id = ${params.bind(test.question_id)} AND value IN (${params.list(keys)})`;
        return db.all<{ target_id: string; target_value: string; n: Num; completed: Num; seconds_sum: Num; seconds_count: Num }>(
          `SELECT target_id, target_value, SUM(n) AS n, SUM(completed) AS completed, ` +
            `SUM(seconds_sum) AS seconds_sum, SUM(seconds_count) AS seconds_count FROM ${table} WHERE ${where} GROUP BY target_id, target_value`,
          params.values,
        );
      })()
    : [];
  const analytics: ResponseAnalytics = { total: 0, completed: 0, average_completion_seconds: null, by_day: [], questions: [] };
  const values: QuestionValueCount[] = [];
  const answered = new Map<string, number>();
  const stoppedAt = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);
  let secondsSum = 0;
  let secondsCount = 0;
  const days = new Map<string, { date: string; total: number; completed: number }>();
  for (const r of rows) {
    const n = Number(r.n);
    if (r.target_id !== '') {
      add(answered, r.target_id, n);
      if (n > 0) values.push({ question_id: r.target_id, value: r.target_value, count: n });
      continue;
    }
    // A day row: `day \u0001 furthest` then `\u0001 question \u0002 keys` per answer without exactly one key.
    const [date, stopped, ...odd] = r.target_value.split('\u0001') as [string, string, ...string[]];
    const day = days.get(date) ?? { date, total: 0, completed: 0 };
    days.set(date, day);
    day.total += n;
    day.completed += Number(r.completed);
    secondsSum += Number(r.seconds_sum);
    secondsCount += Number(r.seconds_count);
    if (stopped) add(stoppedAt, stopped, n);
    for (const o of odd) {
      const [t, keys] = o.split('\u0002') as [string, string];
      add(answered, t, n * (1 - Number(keys)));
    }
  }
  for (const day of days.values()) {
    if (day.total <= 0) continue;
    analytics.by_day.push(day);
    analytics.total += day.total;
    analytics.completed += day.completed;
  }
  analytics.by_day.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  if (secondsCount > 0) analytics.average_completion_seconds = secondsSum / secondsCount;
  const questions: QuestionDropOff[] = [];
  let reached = 0;
  for (let i = order.length - 1; i >= 0; i--) {
    const q = order[i]!;
    reached += stoppedAt.get(q.id) ?? 0;
    questions.unshift({ question_id: q.id, reached, answered: answered.get(q.id) ?? 0 });
  }
  analytics.questions = questions;
  return { analytics, values };
}
