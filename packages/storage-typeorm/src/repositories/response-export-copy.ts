import type { PackedResponses, ResponseFilter } from '@formloom/core';
import type { Db } from '../sql/db';
import type { Dialect } from '../sql/dialect';
import { copyPacked, pgLiteral } from '../sql/pg-copy';
import { filterConditions } from './response-search';

/*
 * The CSV export's packed pages on PostgreSQL, read with one `COPY (SELECT ...) TO STDOUT` instead of a
 * statement per page: the rows stream in the response order in COPY's binary format, and are packed here
 * (the format of PackedResponses) `pageSize` responses to a page. One statement also means one snapshot: an export made while responses arrive or
 * are deleted is the form's responses at one instant. Measured against the paged statements in
 * docs/benchmarks.md ("CSV export on PostgreSQL").
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
export function copyExportSelect(d: Dialect, responses: string, formId: string, hidden: boolean, filter?: ResponseFilter): string | null {
  let where: string;
  try {
    where = `form_id = ${literal(formId)}${filter ? filterConditions(d, filter, literal) : ''}`;
  } catch (err) {
    if (err instanceof NotALiteral) return null;
    throw err;
  }
  // The fields of a packed response, in order; a NULL (completed_at of a partial response, no hidden values)
  // packs as an empty field. Packing them here, not in SQL: concat() per row doubled the server's time.
  const values = hidden ? `(metadata::json -> 'hidden')::text` : `''::text`;
  return `SELECT id, submitted_at, completed_at, ${values}, answers FROM ${responses} WHERE ${where} ORDER BY submitted_at, id`;
}

/** The packed pages of `select` (copyExportSelect), `pageSize` responses each (fewer in the last). */
export async function* copiedExportPages(db: Required<Pick<Db, 'copyOut'>>, select: string, pageSize: number): AsyncGenerator<PackedResponses> {
  for await (const page of copyPacked(db.copyOut(select), pageSize)) yield { count: page.count, bytes: page.bytes };
}
