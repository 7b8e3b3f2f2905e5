import type { EntitySchema } from 'typeorm';
import { columnsOf, columnTypeOf } from '../tables/columns';
import { type Dialect, Params } from './dialect';
import type { Db, Row } from './db';

const q = (column: string) => `"${column}"`;

export const tableOf = (d: Dialect, entity: EntitySchema<any>): string => d.table(entity.options.tableName!);

export interface InsertStatement {
  sql: string;
  /** The row's values in column order; absent values bind as NULL. */
  values(row: object): unknown[];
}

/**
 * `INSERT ... ON CONFLICT DO NOTHING` of every column: a taken key shows as 0 changed rows rather than as
 * an error, which on PostgreSQL would abort the surrounding transaction.
 */
export function insertIgnoring(d: Dialect, entity: EntitySchema<any>): InsertStatement {
  const columns = columnsOf(entity);
  const placeholders = columns.map((_, i) => d.p(i + 1)).join(', ');
  return {
    sql: `INSERT INTO ${tableOf(d, entity)} (${columns.map(q).join(', ')}) VALUES (${placeholders}) ON CONFLICT DO NOTHING`,
    values: (row) => columns.map((c) => (row as Row)[c] ?? null),
  };
}

/** A multi-row INSERT of `rows` (all columns of the entity), with an optional tail such as ON CONFLICT. */
export function insertMany(d: Dialect, entity: EntitySchema<any>, rows: object[], tail = ''): Params & { sql: string } {
  const columns = columnsOf(entity);
  const params = new Params(d);
  const tuples = rows.map((row) => `(${params.list(columns.map((c) => (row as Row)[c] ?? null))})`);
  const sql = `INSERT INTO ${tableOf(d, entity)} (${columns.map(q).join(', ')}) VALUES ${tuples.join(', ')} ${tail}`;
  return Object.assign(params, { sql });
}

/** `UPDATE ... SET <set> WHERE <key> = ? RETURNING *`, or `null` when `set` is empty. */
export function updateReturning(
  d: Dialect,
  entity: EntitySchema<any>,
  set: Row,
  key: string,
  keyValue: unknown,
): { sql: string; values: unknown[] } | null {
  const columns = Object.keys(set);
  if (columns.length === 0) return null;
  const params = new Params(d);
  const assignments = columns.map((c) => `${q(c)} = ${params.bind(set[c])}`).join(', ');
  return {
    sql: `UPDATE ${tableOf(d, entity)} SET ${assignments} WHERE ${q(key)} = ${params.bind(keyValue)} RETURNING *`,
    values: params.values,
  };
}

/** Ids per statement: far below both databases' bound-parameter limits. */
const ID_BATCH = 500;

/** The distinct values in statement-sized batches (none for none). */
export function idBatches<T>(values: readonly T[]): T[][] {
  const unique = [...new Set(values)];
  const out: T[][] = [];
  for (let i = 0; i < unique.length; i += ID_BATCH) out.push(unique.slice(i, i + ID_BATCH));
  return out;
}

/**
 * Rows per `insertRows` statement: the rows are one parameter on both databases, so a slice's answers index or
 * counters go in one statement.
 */
const ROWS_PER_INSERT = 5000;

/**
 * `INSERT INTO <entity's table> (<columns>) <rows> <tail>` of many rows (`tail`: an ON CONFLICT clause), the rows
 * sent as one parameter, a JSON array of arrays (docs/benchmarks.md, "Submissions and webhooks"). Values are
 * strings, numbers, booleans or null (a number that is not finite goes as null, as JSON has none); the statement's
 * text depends on the table and columns only.
 * - SQLite reads it with `jsonb_each`: node's sqlite3 binds every parameter on the main thread (about 0.3 µs
 *   each), and a group commit's answer index and counters bound hundreds per submission, while one JSON text
 *   binds as one string and is read on SQLite's own thread. `jsonb_each`, not `json_each`: the latter hands each
 *   row back as JSON text that every `->>` parses again, a tenth of the indexer's CPU. Booleans arrive as 1 and 0.
 * - PostgreSQL reads it with `jsonb_array_elements`, each value cast to its column's type in `entity`. As `VALUES`
 *   with a parameter per value, the indexer sent up to 810 parameters a statement, a new statement text for every
 *   row count (parsed and planned each time) and a statement per 90 to 150 rows: counting a response cost the
 *   machine half as much CPU again, node's and the server's together. Arrays, not objects keyed by column
 *   (`jsonb_populate_recordset`): half the bytes to write and collect.
 */
export function insertRows(d: Dialect, entity: EntitySchema<any>, columns: readonly string[], rows: readonly unknown[][], tail = ''): { sql: string; values: unknown[] } {
  const table = tableOf(d, entity);
  const into = `INSERT INTO ${table} (${columns.join(', ')})`;
  if (d.kind === 'sqlite') {
    // `WHERE true` lets SQLite's parser read a following ON CONFLICT as the upsert clause.
    const select = columns.map((_, i) => `value ->> ${i}`).join(', ');
    return { sql: `${into} SELECT ${select} FROM jsonb_each(${d.p(1)}) WHERE true ${tail}`, values: [JSON.stringify(rows)] };
  }
  const select = columns.map((c, i) => `(r ->> ${i})::${columnType(entity, c)}`).join(', ');
  return { sql: `${into} SELECT ${select} FROM jsonb_array_elements(${d.p(1)}::jsonb) AS r ${tail}`, values: [JSON.stringify(rows)] };
}

/** Writes `rows` with `insertRows`, ROWS_PER_INSERT to a statement, one statement after the other. */
export async function writeRows(db: Db, d: Dialect, entity: EntitySchema<any>, columns: readonly string[], rows: readonly unknown[][], tail = ''): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const { sql, values } = insertRows(d, entity, columns, rows.slice(i, i + ROWS_PER_INSERT), tail);
    await db.run(sql, values);
  }
}

/** The SQL type of `column` in `entity`; a column it does not declare is a programming error. */
function columnType(entity: EntitySchema<any>, column: string): string {
  const type = columnTypeOf(entity, column);
  if (type === undefined) throw new Error(`${entity.options.tableName}: no column ${column} with a type`);
  return type;
}
