import type { EntitySchema } from 'typeorm';
import type { Db, Row } from './db';
import { type Dialect, Params } from './dialect';
import { columnTypeOf } from '../tables/columns';
import { insertMany } from './statements';

/*
 * Writes of one kind that a transaction sends together, run as one statement (docs/benchmarks.md,
 * "Submissions and webhooks"). The outbox worker settles a batch of deliveries by sending, for each, an attempt row, a
 * delivery update and an outbox update at once; a submission enqueues one delivery and one outbox item per
 * webhook. One statement per row cost one round trip of the single SQLite writer each, with the write
 * transaction held meanwhile. Calls made in the same turn of the event loop are gathered and run as one
 * statement; each caller still gets its own answer (a row taken by a conflict, a row not leased). Only
 * inside a transaction: there every call is on the one connection the transaction holds.
 */

/** Most rows in one statement: far below both databases' bound-parameter limits. */
const MAX_ROWS = 100;

export class Coalescer<I, R> {
  private pending: Array<{ item: I; resolve: (r: R) => void; reject: (e: unknown) => void }> = [];

  /** `many` runs items as one statement, answering each item's result in order; `one` runs a single item. */
  constructor(
    private readonly many: (items: I[]) => Promise<R[]>,
    private readonly one: (item: I) => Promise<R>,
  ) {}

  call(item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.pending.length === 0) queueMicrotask(() => this.flush());
      this.pending.push({ item, resolve, reject });
    });
  }

  private flush() {
    const calls = this.pending;
    this.pending = [];
    for (let i = 0; i < calls.length; i += MAX_ROWS) {
      const chunk = calls.slice(i, i + MAX_ROWS);
      if (chunk.length === 1) {
        this.one(chunk[0]!.item).then(chunk[0]!.resolve, chunk[0]!.reject);
        continue;
      }
      this.many(chunk.map((c) => c.item)).then(
        (results) => chunk.forEach((c, j) => c.resolve(results[j]!)),
        // The statement changed nothing (it is atomic): each call is tried alone for its own outcome.
        () => chunk.forEach((c) => this.one(c.item).then(c.resolve, c.reject)),
      );
    }
  }
}

/**
 * `UPDATE table AS t SET ... FROM (rows) AS v WHERE t.key = v.key AND <where>` over `rows` (objects of the
 * same columns, `key` among them), returning the keys of the rows it changed. `set` maps each updated
 * column to its expression over `t` and `v`. PostgreSQL types a bound value it cannot infer as text, so
 * there each value is cast to its column's type in `entity` (text for a name that is not a column).
 */
export function updateFromRows(
  d: Dialect,
  table: string,
  entity: EntitySchema<any>,
  rows: Array<Record<string, unknown>>,
  key: string,
  set: string,
  where = '',
): { sql: string; values: unknown[] } {
  const params = new Params(d);
  const columns = Object.keys(rows[0]!);
  const casts = columns.map((c) => (d.kind === 'postgres' ? `::${pgTypeOf(entity, c)}` : ''));
  const selects = rows.map(
    (row, i) => `SELECT ${columns.map((c, j) => `${params.bind(row[c] ?? null)}${casts[j]}${i === 0 ? ` AS "${c}"` : ''}`).join(', ')}`,
  );
  return {
    sql: `UPDATE ${table} AS t SET ${set} FROM (${selects.join(' UNION ALL ')}) AS v WHERE t."${key}" = v."${key}"${where ? ` AND ${where}` : ''} RETURNING ${d.kind === 'postgres' ? 't.' : ''}"${key}" AS k`,
    values: params.values,
  };
}

/** The PostgreSQL type a bound value of `column` is cast to: the repositories' columns are text, integers or booleans. */
function pgTypeOf(entity: EntitySchema<any>, column: string): string {
  const type = columnTypeOf(entity, column);
  return type === 'integer' ? 'integer' : type === 'boolean' ? 'boolean' : 'text';
}

/** A statement as `db.all`'s arguments. */
export const sqlOf = (statement: { sql: string; values: unknown[] }): [string, unknown[]] => [statement.sql, statement.values];

/** The keys a RETURNING statement answered, as a set. */
export async function returnedKeys(db: Db, statement: { sql: string; values: unknown[] }): Promise<Set<string>> {
  const rows = await db.all<{ k: string }>(statement.sql, statement.values);
  return new Set(rows.map((r) => String(r.k)));
}

/**
 * Inserts of `entity` rows (each with an `id`) gathered into one `INSERT ... ON CONFLICT DO NOTHING
 * RETURNING id`; each call answers whether its row went in. `one` is the single-row insert.
 */
export function insertCoalescer(
  d: Dialect,
  db: Db,
  entity: EntitySchema<any>,
  one: (row: Row) => Promise<boolean>,
): Coalescer<Row, boolean> {
  return new Coalescer<Row, boolean>(async (rows) => {
    const statement = insertMany(d, entity, rows, 'ON CONFLICT DO NOTHING RETURNING id AS k');
    const keys = await returnedKeys(db, { sql: statement.sql, values: statement.values });
    // A row repeated in one statement went in once, as the first of them: the later ones are refused.
    return rows.map((r) => keys.delete(String(r.id)));
  }, one);
}
