import type { ResponseFilter } from '@formloom/core';
import type { Dialect } from '../sql/dialect';
import { pgLiteral } from '../sql/pg-copy';
import { filterConditions } from './response-search';

/*
 * The SELECT of the CSV export's rows on PostgreSQL, read with one `COPY (SELECT ...) TO STDOUT` instead of
 * a statement per page (sql/pg-copy.ts packs its rows into pages). One statement also means one snapshot:
 * an export made while responses arrive or are deleted is the form's responses at one instant. Measured
 * in docs/benchmarks.md, "The CSV export".
 */

/** A filter value COPY cannot carry as a literal (COPY takes no bound parameters). */
class NotALiteral extends Error {}

/** `value` as a literal: the filters bind strings only, and PostgreSQL text cannot hold NUL. */
function literal(value: unknown): string {
  if (typeof value !== 'string' || value.includes('\0')) throw new NotALiteral();
  return pgLiteral(value);
}

/**
 * The SELECT whose rows are the packed responses of `formId` matching `filter`, in (submitted_at, id)
 * order, or null when a filter value cannot be written as a literal (the caller reads pages instead).
 */
export function copyExportSelect(
  d: Dialect,
  responses: string,
  formId: string,
  hidden: boolean,
  filter?: ResponseFilter,
  lines?: string,
  language = false,
): string | null {
  let where: string;
  let fresh: string;
  try {
    where = `form_id = ${literal(formId)}${filter ? filterConditions(d, filter, literal, formId) : ''}`;
    fresh = lines === undefined ? '' : `csv_layout = ${literal(lines)}`;
  } catch (err) {
    if (err instanceof NotALiteral) return null;
    throw err;
  }
  // The fields of a packed response, in order; a NULL (completed_at of a partial response, no hidden values)
  // packs as an empty field. Packing them here, not in SQL: concat() per row doubled the server's time.
  const values = hidden ? `(metadata::json -> 'hidden')::text` : `''::text`;
  // With `language` (the XLSX and JSON exports), the response's language and version follow its answers.
  const fields = `id, submitted_at, completed_at, ${values}, answers${language ? ', language, version_id' : ''}`;
  if (!fresh) return `SELECT ${fields} FROM ${responses} WHERE ${where} ORDER BY submitted_at, id`;
  // With the key of the export's columns, a row's stored line first (sql/pg-copy.ts), and the big fields
  // only for a row without: the rest of a row with a line is dropped.
  return (
    `SELECT CASE WHEN ${fresh} THEN csv_line END, id, submitted_at, completed_at, ` +
    `CASE WHEN ${fresh} THEN NULL ELSE ${values} END, CASE WHEN ${fresh} THEN NULL ELSE answers END` +
    `${language ? `, CASE WHEN ${fresh} THEN NULL ELSE language END, CASE WHEN ${fresh} THEN NULL ELSE version_id END` : ''} ` +
    `FROM ${responses} WHERE ${where} ORDER BY submitted_at, id`
  );
}
