import type { QuestionDropOff, QuestionValueCount, ResponseAnalytics, ResponseFilter } from '@formloom/core';
import { ResponseAnswerEntity } from '../tables/response-answers';
import { QuestionEntity } from '../tables/form-content';
import type { Db } from '../sql/db';
import { type Dialect, Params } from '../sql/dialect';
import { tableOf } from '../sql/statements';
import { filterConditions } from './response-search';
import { matchingSql } from './answer-filter-sql';
import { pairSummary } from './answer-pairs';

/*
 * A filtered summary (docs/responses-and-webhooks.md, "Filtering by answer"): the rollups count every
 * response, so the counts of the responses a filter selects are computed from those responses in SQL.
 */

type Num = number | string;

/**
 * Analytics and answer distributions of the responses `filter` selects: from the pair counts for one
 * choice-like test (answer-pairs.ts), else from those responses: the days'
 * counts from the responses' index, the distributions and per-question counts from the answers index by
 * response (its primary key), drop-off by the form's current question order.
 */
export async function filteredSummary(
  db: Db,
  d: Dialect,
  responses: string,
  formId: string,
  filter: ResponseFilter,
): Promise<{ analytics: ResponseAnalytics; values: QuestionValueCount[] }> {
  const index = tableOf(d, ResponseAnswerEntity);
  const questionsTable = tableOf(d, QuestionEntity);
  const rest = (f: ResponseFilter, bind: (v: unknown) => string) => filterConditions(d, f, bind, formId);
  const order = await db.all<{ id: string; sort_order: Num; type: string; multiple: unknown }>(
    `SELECT id, sort_order, type, properties AS multiple FROM ${questionsTable} WHERE form_id = ${d.p(1)} ORDER BY sort_order, id`,
    [formId],
  );
  // One choice-like test: the pair counts answer it without reading a response (answer-pairs.ts).
  const counted = await pairSummary(db, d, formId, filter, order);
  if (counted) return counted;
  // The matches are found once (answer-filter-sql.ts, `matchingSql`: from the answers index alone when a test can
  // drive), kept by the database for this one statement (MATERIALIZED), and each part of the summary reads only
  // the matches' own rows: their days from IDX_responses_form_submitted, their answers by the index's primary key.
  const params = new Params(d);
  const join = d.kind === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const matches = matchingSql(d, responses, formId, filter, params.bind, rest);
  const seconds = 'CASE WHEN r.completed_at IS NOT NULL THEN r.completion_seconds END';
  // Each answer's position by the current order, written into the statement (no join per answer row).
  const position = order.length ? `CASE a.question_id ${order.map((q) => `WHEN ${params.bind(q.id)} THEN ${Number(q.sort_order)}`).join(' ')} END` : 'NULL';
  // A multiple-selection answer has a row per choice: its question's answered count is of responses.
  const multi = order.filter((q) => q.type === 'multiple_choice' && isMultiple(q.multiple)).map((q) => q.id);
  const parts = [
    `SELECT 'd' AS k, substr(r.submitted_at, 1, 10) AS a, '' AS b, COUNT(*) AS n, COUNT(r.completed_at) AS c, SUM(${seconds}) AS s, COUNT(${seconds}) AS sc ` +
      `FROM m ${join} ${responses} r ON r.form_id = ${params.bind(formId)} AND r.submitted_at = m.m_at AND r.id = m.m_id GROUP BY substr(r.submitted_at, 1, 10)`,
    `SELECT 'v', a.question_id, a.value, COUNT(*), 0, 0, 0 FROM m ${join} ${index} a ON a.response_id = m.m_id GROUP BY a.question_id, a.value`,
    // Each matching response's furthest answered question, by the current order.
    `SELECT 'f', CAST(pos AS TEXT), '', COUNT(*), 0, 0, 0 FROM (SELECT MAX(${position}) AS pos FROM m ${join} ${index} a ON a.response_id = m.m_id GROUP BY m.m_id) f GROUP BY pos`,
  ];
  if (multi.length) {
    parts.push(
      `SELECT 'm', a.question_id, '', COUNT(DISTINCT a.response_id), 0, 0, 0 FROM m ${join} ${index} a ON a.response_id = m.m_id ` +
        `WHERE a.question_id IN (${params.list(multi)}) GROUP BY a.question_id`,
    );
  }
  type Part = { k: 'd' | 'v' | 'f' | 'm'; a: string | null; b: string | null; n: Num; c: Num; s: Num | null; sc: Num };
  const rows = await db.all<Part>(`WITH m AS MATERIALIZED (${matches}) ${parts.join(' UNION ALL ')}`, params.values);
  const dayRows = rows.filter((r) => r.k === 'd').map((r) => ({ day: r.a!, total: r.n, completed: r.c, seconds_sum: r.s, seconds_count: r.sc }));
  const valueRows = rows.filter((r) => r.k === 'v').map((r) => ({ question_id: r.a!, value: r.b ?? '', n: r.n }));
  const furthestRows = rows.filter((r) => r.k === 'f').map((r) => ({ pos: r.a, n: r.n }));
  const values: QuestionValueCount[] = [];
  const answered = new Map<string, number>();
  for (const r of valueRows) {
    const n = Number(r.n);
    if (r.value !== '') values.push({ question_id: r.question_id, value: r.value, count: n });
    answered.set(r.question_id, (answered.get(r.question_id) ?? 0) + n);
  }
  for (const q of multi) answered.set(q, 0);
  for (const r of rows) if (r.k === 'm') answered.set(r.a!, Number(r.n));
  const stoppedAt = new Map(furthestRows.filter((r) => r.pos !== null).map((r) => [Number(r.pos), Number(r.n)]));
  const questions: QuestionDropOff[] = [];
  let reached = 0;
  for (let i = order.length - 1; i >= 0; i--) {
    const q = order[i]!;
    reached += stoppedAt.get(Number(q.sort_order)) ?? 0;
    questions.unshift({ question_id: q.id, reached, answered: answered.get(q.id) ?? 0 });
  }
  const analytics: ResponseAnalytics = { total: 0, completed: 0, average_completion_seconds: null, by_day: [], questions };
  let secondsSum = 0;
  let secondsCount = 0;
  for (const r of [...dayRows].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))) {
    const entry = { date: r.day, total: Number(r.total), completed: Number(r.completed) };
    analytics.by_day.push(entry);
    analytics.total += entry.total;
    analytics.completed += entry.completed;
    secondsSum += Number(r.seconds_sum ?? 0);
    secondsCount += Number(r.seconds_count);
  }
  if (secondsCount > 0) analytics.average_completion_seconds = secondsSum / secondsCount;
  return { analytics, values };
}

function isMultiple(properties: unknown): boolean {
  try {
    const p = typeof properties === 'string' ? JSON.parse(properties) : properties;
    return !!p && typeof p === 'object' && (p as { allow_multiple?: unknown }).allow_multiple === true;
  } catch {
    return false;
  }
}
