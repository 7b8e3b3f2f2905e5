import type { AnswerFilter, AnswerTest } from '@formloom/core';
import { ResponseAnswerEntity } from '../tables/response-answers';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

/*
 * Filters by answer as SQL (docs/responses-and-webhooks.md, "Filtering by answer"; docs/decisions.md,
 * "Filters by answer"). Each checked test (core's answer-filter.ts) becomes a condition on the responses
 * table: `id IN (...)` / `id NOT IN (...)` over the answers index (answer-index.ts), which a seek in
 * IDX_responses_answers_value or _num answers, or, for text, a walk of the row's answers like the search.
 * The conditions bind strings only (numbers as decimal text, compared as numbers by the column's type), so
 * PostgreSQL's single-COPY export can write them as literals.
 */

/** `%`, `_` and the escape character itself, escaped for `LIKE ... ESCAPE '\'`. */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function pattern(t: AnswerTest): string {
  const v = likeEscaped(t.values[0] ?? '');
  if (t.op === 'contains' || t.op === 'not_contains') return `%${v}%`;
  if (t.op === 'begins_with') return `${v}%`;
  if (t.op === 'ends_with') return `%${v}`;
  return v;
}

const NEGATIVE = new Set(['not_equals', 'not_contains', 'is_not_answered']);
const COMPARE: Record<string, string> = { greater_than: '>', less_than: '<', greater_or_equal: '>=', less_or_equal: '<=' };

/** The predicate on an index row for a `key` or `num` test (the negative ops' positive form). */
function rowPredicate(d: Dialect, t: AnswerTest, bind: (v: unknown) => string): string {
  const col = t.via === 'num' ? 'num' : 'value';
  switch (t.op) {
    case 'equals':
    case 'not_equals':
      return `${col} = ${bind(t.values[0])}`;
    case 'is_any_of':
      return `${col} IN (${t.values.map(bind).join(', ')})`;
    case 'contains':
    case 'not_contains':
      return `value ${d.kind === 'postgres' ? 'ILIKE' : 'LIKE'} ${bind(pattern(t))} ESCAPE '\\'`;
    case 'between':
      return `${col} >= ${bind(t.values[0])} AND ${col} <= ${bind(t.values[1])}`;
    default: {
      const cmp = COMPARE[t.op];
      if (!cmp) throw new Error(`no SQL for ${t.op} on ${t.via}`);
      return `${col} ${cmp} ${bind(t.values[0])}`;
    }
  }
}

/**
 * A text test's words as a `LIKE` on the answers' whole JSON text, or null: an answer that passes the test holds
 * them as they are in that text, unless they have a character JSON escapes (`"`, `\`, control characters).
 * It drops the responses that cannot match before their answers are walked, as the search does.
 */
function textPrefilter(t: AnswerTest): string | null {
  const words = t.values[0] ?? '';
  if (!words || /["\\\u0000-\u001f]/.test(words)) return null;
  return `%${likeEscaped(words)}%`;
}

/** One test as a condition on a `responses` row (its id written as `id`). */
function testSql(d: Dialect, t: AnswerTest, formId: string, bind: (v: unknown) => string, id = 'id'): string {
  const negative = NEGATIVE.has(t.op);
  if (t.via === 'text') {
    const like = d.kind === 'postgres' ? 'ILIKE' : 'LIKE';
    const walk =
      d.kind === 'postgres'
        ? `SELECT 1 FROM jsonb_array_elements(answers::jsonb) a WHERE a ->> 'question_id' = ${bind(t.question_id)} AND jsonb_typeof(a -> 'value') = 'string' ` +
          `AND (a ->> 'value') ${like} ${bind(pattern(t))} ESCAPE '\\'`
        : `SELECT 1 FROM json_each(answers) a WHERE json_extract(a.value, '$.question_id') = ${bind(t.question_id)} ` +
          `AND json_type(a.value, '$.value') = 'text' AND json_extract(a.value, '$.value') ${like} ${bind(pattern(t))} ESCAPE '\\'`;
    const pre = textPrefilter(t);
    const exists = `EXISTS (${walk})`;
    if (pre === null) return `${negative ? 'NOT ' : ''}${exists}`;
    const text = `answers ${like} ${bind(pre)} ESCAPE '\\'`;
    // The cheap LIKE first: only the responses whose text holds the words are walked.
    return negative ? `(NOT ${text} OR NOT ${exists})` : `(${text} AND ${exists})`;
  }
  const index = tableOf(d, ResponseAnswerEntity);
  let rows = `SELECT response_id FROM ${index} WHERE form_id = ${bind(formId)} AND question_id = ${bind(t.question_id)}`;
  if (t.via === 'presence') return `${id} ${t.op === 'is_not_answered' ? 'NOT IN' : 'IN'} (${rows})`;
  rows += ` AND ${rowPredicate(d, t, bind)}`;
  return `${id} ${negative ? 'NOT IN' : 'IN'} (${rows})`;
}

/** `AND (...)` for the tests joined by `all` or `any`; `id` is how the response's id is written. */
export function answerConditions(d: Dialect, filter: AnswerFilter, formId: string, bind: (v: unknown) => string, id = 'id'): string {
  const parts = filter.tests.map((t) => testSql(d, t, formId, bind, id));
  if (parts.length === 0) return '';
  return ` AND (${parts.join(filter.match === 'all' ? ' AND ' : ' OR ')})`;
}

/** Ops whose rows in the answers index are one per response for a single-valued key (no DISTINCT needed). */
const ONE_ROW = new Set(['equals', 'greater_than', 'less_than', 'greater_or_equal', 'less_or_equal', 'between']);

/**
 * The matching responses driven by the answers index (docs/decisions.md, "Filters by answer"): with `all`,
 * the first positive test on keys or numbers is read from its index (IDX_response_answers_value or _num, the
 * dates and the other key, number and presence tests applied there too) and only those responses are looked up
 * by id for the other filters. Without it
 * the planner would read every response of the form (IDX_responses_form_submitted) and probe the list.
 * `from` names the driver `m` (columns `m_id`, `m_at`) joined to the responses as `r`; `where` holds the
 * other filters on `r`; `alone` says the driver is the whole filter (no lookup needed to count).
 * `rows` is the driver alone, `lookup` the join that follows it. `null` when no test can drive (only `any`, negative or text tests): the caller filters the responses.
 */
export function drivenMatch(
  d: Dialect,
  responses: string,
  formId: string,
  filter: { since?: string; until?: string; completed?: boolean; search?: string; version?: number; language?: string; answers?: AnswerFilter },
  bind: (v: unknown) => string,
  rest: (f: typeof filter, bind: (v: unknown) => string) => string,
): { from: string; where: string; alone: boolean; rows: string; lookup: string } | null {
  const answers = filter.answers;
  if (!answers || answers.match !== 'all') return null;
  const driver = answers.tests.find((t) => (t.via === 'key' || t.via === 'num') && !NEGATIVE.has(t.op)) ?? answers.tests.find((t) => t.via === 'presence' && t.op === 'is_answered');
  if (!driver) return null;
  const index = tableOf(d, ResponseAnswerEntity);
  let rows = `SELECT ${ONE_ROW.has(driver.op) && driver.via !== 'presence' ? '' : 'DISTINCT '}response_id AS m_id, submitted_at AS m_at FROM ${index} ` +
    `WHERE form_id = ${bind(formId)} AND question_id = ${bind(driver.question_id)}`;
  if (driver.via !== 'presence') rows += ` AND ${rowPredicate(d, driver, bind)}`;
  if (filter.since !== undefined) rows += ` AND submitted_at >= ${bind(filter.since)}`;
  if (filter.until !== undefined) rows += ` AND submitted_at <= ${bind(filter.until)}`;
  // The other key, number and presence tests are sets of their own index ranges, checked on the driver's rows
  // before any response is looked up (as `matchingSql`); `+` on SQLite keeps their sets from being the seek key.
  const inIndex = answers.tests.filter((t) => t !== driver && t.via !== 'text');
  if (inIndex.length) rows += answerConditions(d, { match: 'all', tests: inIndex }, formId, bind, d.kind === 'sqlite' ? '+response_id' : 'response_id');
  const others = { ...filter, since: undefined, until: undefined, answers: { match: answers.match, tests: answers.tests.filter((t) => t !== driver && t.via === 'text') } };
  const alone = others.completed === undefined && others.search === undefined && others.version === undefined && others.language === undefined && others.answers.tests.length === 0;
  // SQLite's CROSS JOIN keeps the written order (the driver outside); PostgreSQL's planner chooses by itself.
  const join = d.kind === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  // The text tests only check the looked-up responses. On SQLite, `+r.id` keeps the planner from using their
  // lists as the lookup's key (IDX_responses_form_submitted ends with id): it then walked the whole list for
  // every match, seconds for two filters of a sixth and a fifth of 20,000 responses.
  const tests = others.answers.tests.length ? answerConditions(d, others.answers, formId, bind, d.kind === 'sqlite' ? '+r.id' : 'r.id') : '';
  const where = `r.form_id = ${bind(formId)}${rest({ ...others, answers: undefined }, bind)}${tests}`;
  // The index row carries its response's submitted_at (kept equal by every write), so the lookup can be a seek in
  // IDX_responses_form_submitted, which also holds completed_at and completion_seconds: a summary's days read no row.
  const on = `r.id = m.m_id AND r.form_id = ${bind(formId)} AND r.submitted_at = m.m_at`;
  return { from: `(${rows}) m ${join} ${responses} r ON ${on}`, where, alone, rows: `(${rows}) m`, lookup: `${join} ${responses} r ON ${on}` };
}

/**
 * The matching responses as a SELECT of `m_id` (the response's id) and `m_at` (its submitted_at), for a filtered
 * summary to read once (filtered-summary.ts; docs/decisions.md, "Filtered summaries from the matches"). With
 * `all` and a positive test on keys or numbers (or "is answered"), from the answers index alone: that test's
 * range is read (dates applied there too) and every other key, number or presence test is a set read from its
 * own range of the index (`IN` / `NOT IN`): each range is read in index order, never a lookup per row, and no
 * response is read unless another filter (completion, version, language, search, a text test) needs it, then
 * only for the rows left. Otherwise the form's responses filtered, as the list does.
 */
export function matchingSql(
  d: Dialect,
  responses: string,
  formId: string,
  filter: { since?: string; until?: string; completed?: boolean; search?: string; version?: number; language?: string; answers?: AnswerFilter },
  bind: (v: unknown) => string,
  rest: (f: typeof filter, bind: (v: unknown) => string) => string,
): string {
  const answers = filter.answers;
  const driver =
    answers && answers.match === 'all'
      ? (answers.tests.find((t) => (t.via === 'key' || t.via === 'num') && !NEGATIVE.has(t.op)) ?? answers.tests.find((t) => t.via === 'presence' && t.op === 'is_answered'))
      : undefined;
  if (!answers || !driver) return `SELECT id AS m_id, submitted_at AS m_at FROM ${responses} WHERE form_id = ${bind(formId)}${rest(filter, bind)}`;
  const index = tableOf(d, ResponseAnswerEntity);
  const distinct = ONE_ROW.has(driver.op) && driver.via !== 'presence' ? '' : 'DISTINCT ';
  let where = `i.form_id = ${bind(formId)} AND i.question_id = ${bind(driver.question_id)}`;
  // `value`, `num` and the other filters' columns are each in one of the two tables: only the shared ones are named.
  if (driver.via !== 'presence') where += ` AND ${rowPredicate(d, driver, bind)}`;
  if (filter.since !== undefined) where += ` AND i.submitted_at >= ${bind(filter.since)}`;
  if (filter.until !== undefined) where += ` AND i.submitted_at <= ${bind(filter.until)}`;
  const others = answers.tests.filter((t) => t !== driver);
  const inIndex = others.filter((t) => t.via !== 'text');
  const onResponse = others.filter((t) => t.via === 'text');
  // On SQLite `+i.response_id` keeps the planner from seeking the primary key once per id of another test's set
  // (random reads) instead of walking the driver's range and probing the sets.
  if (inIndex.length) where += answerConditions(d, { match: 'all', tests: inIndex }, formId, bind, d.kind === 'sqlite' ? '+i.response_id' : 'i.response_id');
  const byResponse = { ...filter, since: undefined, until: undefined, answers: undefined };
  const needsResponse =
    byResponse.completed !== undefined || byResponse.search !== undefined || byResponse.version !== undefined || byResponse.language !== undefined || onResponse.length > 0;
  if (!needsResponse) return `SELECT ${distinct}i.response_id AS m_id, i.submitted_at AS m_at FROM ${index} i WHERE ${where}`;
  // The rows left are looked up by (form, submitted_at, id): a seek in IDX_responses_form_submitted.
  const join = d.kind === 'sqlite' ? 'CROSS JOIN' : 'JOIN';
  const on = `r.form_id = ${bind(formId)} AND r.submitted_at = i.submitted_at AND r.id = i.response_id`;
  const texts = onResponse.length ? answerConditions(d, { match: 'all', tests: onResponse }, formId, bind, 'r.id') : '';
  return (
    `SELECT ${distinct}i.response_id AS m_id, i.submitted_at AS m_at FROM ${index} i ${join} ${responses} r ON ${on} ` +
    `WHERE ${where}${rest(byResponse, bind)}${texts}`
  );
}

/** The highest placeholder number (`?N` or `$N`) in `sql`: the prefix of the bound values it uses. */
export function countParams(sql: string): number {
  let max = 0;
  for (const m of sql.matchAll(/[?$](\d+)/g)) max = Math.max(max, Number(m[1]));
  return max;
}
