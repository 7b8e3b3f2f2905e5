import type { ResponseFilter } from '@formloom/core';
import type { Dialect } from '../sql/dialect';
import { answerConditions } from './answer-filter-sql';

/*
 * The responses list's filters as SQL (docs/responses-and-webhooks.md, "Searching the answers"). The
 * search matches answer values, not the JSON around them: a cheap LIKE on the stored text drops most rows,
 * and only the rows left are parsed to check that the text is inside a value (a string or a number at any
 * depth of an answer's `value`), never in a key or a question id.
 */

/** `%`, `_` and the escape character itself, escaped for `LIKE ... ESCAPE '\'`. */
const likeEscaped = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The pattern for the stored JSON text: the text as JSON.stringify writes it inside a string (quotes,
 * backslashes and control characters escaped; everything else as is), so a value that holds `"` still
 * passes the pre-filter.
 */
const jsonTextPattern = (search: string) => `%${likeEscaped(JSON.stringify(search).slice(1, -1))}%`;

/** `AND ...` for `search`, binding its parameters through `bind`. */
export function searchCondition(d: Dialect, search: string, bind: (v: unknown) => string): string {
  const raw = bind(jsonTextPattern(search));
  const plain = bind(`%${likeEscaped(search)}%`);
  if (d.kind === 'sqlite') {
    // LIKE ignores the case of ASCII letters only: SQLite has no Unicode case folding without ICU.
    return (
      ` AND answers LIKE ${raw} ESCAPE '\\' AND EXISTS (SELECT 1 FROM json_each(answers) a, json_tree(a.value, '$.value') t ` +
      `WHERE t.type IN ('text', 'integer', 'real') AND t.atom LIKE ${plain} ESCAPE '\\')`
    );
  }
  return (
    ` AND answers ILIKE ${raw} ESCAPE '\\' AND EXISTS (SELECT 1 FROM jsonb_array_elements(answers::jsonb) a, ` +
    `jsonb_path_query(a -> 'value', 'strict $.**') v WHERE jsonb_typeof(v) IN ('string', 'number') AND (v #>> '{}') ILIKE ${plain} ESCAPE '\\')`
  );
}

/**
 * `AND ...` for every filter but `form_id` (the caller's first condition). `formId` is needed only by
 * filters by answer, which seek the form's rows in the answers index (answer-filter-sql.ts).
 */
export function filterConditions(d: Dialect, filter: ResponseFilter, bind: (v: unknown) => string, formId?: string): string {
  let where = '';
  if (filter.since !== undefined) where += ` AND submitted_at >= ${bind(filter.since)}`;
  if (filter.until !== undefined) where += ` AND submitted_at <= ${bind(filter.until)}`;
  if (filter.completed !== undefined) where += ` AND completed_at IS ${filter.completed ? 'NOT NULL' : 'NULL'}`;
  if (filter.search !== undefined) where += searchCondition(d, filter.search, bind);
  // Bound as text: PostgreSQL's COPY export writes every filter value as a string literal.
  if (filter.version !== undefined) where += ` AND version = ${bind(String(filter.version))}`;
  if (filter.language !== undefined) where += ` AND language = ${bind(filter.language)}`;
  if (filter.answers !== undefined) {
    if (formId === undefined) throw new Error('a filter by answer needs the form id');
    where += answerConditions(d, filter.answers, formId, bind);
  }
  return where;
}
