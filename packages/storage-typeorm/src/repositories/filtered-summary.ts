import type { QuestionDropOff, QuestionValueCount, ResponseAnalytics, ResponseFilter } from '@formloom/core';
import { ResponseAnswerEntity } from '../tables/response-answers';
import { QuestionEntity } from '../tables/form-content';
import type { Db } from '../sql/db';
import { type Dialect, Params } from '../sql/dialect';
import { tableOf } from '../sql/statements';
import { filterConditions } from './response-search';
import { countParams, drivenMatch } from './answer-filter-sql';
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
  /**
   * The matching responses as `FROM ... WHERE ...` with the response as `r` and its id as `m_id`: driven by the
   * answers index when a test can drive (answer-filter-sql.ts, `drivenMatch`), else the form's responses filtered.
   */
  const matching = (needsResponse = false) => {
    const params = new Params(d);
    const m = drivenMatch(d, responses, formId, filter, params.bind, rest);
    // The driver alone is the whole filter: the answers index answers without reading a response.
    if (m && m.alone && !needsResponse) {
      // Only the driver's own values (bound first) are used: PostgreSQL refuses a parameter no statement names.
      params.values.splice(countParams(m.rows));
      return { from: m.rows, where: '1 = 1', params };
    }
    if (m) return { from: m.from, where: m.where, params };
    const where = `r.form_id = ${params.bind(formId)}`;
    return { from: `(SELECT id AS m_id FROM ${responses} WHERE form_id = ${params.bind(formId)}${filterConditions(d, filter, params.bind, formId)}) m ${d.kind === 'sqlite' ? 'CROSS JOIN' : 'JOIN'} ${responses} r ON r.id = m.m_id`, where, params };
  };
  const order = await db.all<{ id: string; sort_order: Num; type: string; multiple: unknown }>(
    `SELECT id, sort_order, type, properties AS multiple FROM ${questionsTable} WHERE form_id = ${d.p(1)} ORDER BY sort_order, id`,
    [formId],
  );
  // One choice-like test: the pair counts answer it without reading a response (answer-pairs.ts).
  const counted = await pairSummary(db, d, formId, filter, order);
  if (counted) return counted;
  const seconds = 'CASE WHEN r.completed_at IS NOT NULL THEN r.completion_seconds END';
  const join = d.kind === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const days = matching(true);
  const counts = matching();
  const furthest = matching();
  // Each answer's position by the current order, written into the statement (no join per answer row).
  const position = order.length
    ? `CASE a.question_id ${order.map((q) => `WHEN ${furthest.params.bind(q.id)} THEN ${Number(q.sort_order)}`).join(' ')} END`
    : 'NULL';
  const [dayRows, valueRows, furthestRows] = await Promise.all([
    db.all<{ day: string; total: Num; completed: Num; seconds_sum: Num | null; seconds_count: Num }>(
      `SELECT substr(r.submitted_at, 1, 10) AS day, COUNT(*) AS total, COUNT(r.completed_at) AS completed, SUM(${seconds}) AS seconds_sum, ` +
        `COUNT(${seconds}) AS seconds_count FROM ${days.from} WHERE ${days.where} GROUP BY substr(r.submitted_at, 1, 10)`,
      days.params.values,
    ),
    db.all<{ question_id: string; value: string; n: Num }>(
      `SELECT a.question_id, a.value, COUNT(*) AS n FROM ${counts.from} ${join} ${index} a ON a.response_id = m.m_id WHERE ${counts.where} ` +
        'GROUP BY a.question_id, a.value',
      counts.params.values,
    ),
    // Each matching response's furthest answered question, by the current order.
    db.all<{ pos: Num | null; n: Num }>(
      `SELECT pos, COUNT(*) AS n FROM (SELECT MAX(${position}) AS pos FROM ${furthest.from} ${join} ${index} a ON a.response_id = m.m_id ` +
        `WHERE ${furthest.where} GROUP BY m.m_id) f GROUP BY pos`,
      furthest.params.values,
    ),
  ]);
  const values: QuestionValueCount[] = [];
  const answered = new Map<string, number>();
  for (const r of valueRows) {
    const n = Number(r.n);
    if (r.value !== '') values.push({ question_id: r.question_id, value: r.value, count: n });
    answered.set(r.question_id, (answered.get(r.question_id) ?? 0) + n);
  }
  // A multiple-selection answer has a row per choice: its question's answered count is of responses.
  const multi = order.filter((q) => q.type === 'multiple_choice' && isMultiple(q.multiple)).map((q) => q.id);
  if (multi.length) {
    const m = matching();
    const rows = await db.all<{ question_id: string; n: Num }>(
      `SELECT a.question_id, COUNT(DISTINCT a.response_id) AS n FROM ${m.from} ${join} ${index} a ON a.response_id = m.m_id ` +
        `WHERE a.question_id IN (${m.params.list(multi)}) AND ${m.where} GROUP BY a.question_id`,
      m.params.values,
    );
    for (const q of multi) answered.set(q, 0);
    for (const r of rows) answered.set(r.question_id, Number(r.n));
  }
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
