import type { DataSource } from 'typeorm';

export type DialectKind = 'sqlite' | 'postgres';

/** The few things hand-written SQL needs to know about the database it runs on. */
export interface Dialect {
  readonly kind: DialectKind;
  /**
   * The placeholder of the i-th parameter (1-based). SQLite's numbered `?N` behaves like PostgreSQL's `$N`:
   * one params array serves both, and a parameter may be referenced twice.
   */
  p(i: number): string;
  /** The quoted, schema-qualified name of one of our tables. */
  table(name: string): string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function dialectOf(dataSource: DataSource): Dialect {
  const type = dataSource.options.type;
  if (type === 'sqlite') {
    return { kind: 'sqlite', p: (i) => `?${i}`, table: quote };
  }
  if (type === 'postgres') {
    const schema = (dataSource.options as { schema?: string }).schema;
    return {
      kind: 'postgres',
      p: (i) => `$${i}`,
      table: (name) => (schema ? `${quote(schema)}.${quote(name)}` : quote(name)),
    };
  }
  throw new Error(`@formloom/storage-typeorm supports sqlite and postgres data sources, not ${String(type)}`);
}

/**
 * `column` as a filter that must not choose the index: for a statement that names its rows by key (`id IN (...)`)
 * and also checks they belong to a form. Without statistics SQLite's planner prefers an index on `form_id` to 500
 * key lookups, and then reads every row of the form for each statement (a catch-up of the analytics indexer took
 * time in proportion to the form's responses; docs/benchmarks.md, "The analytics indexer"). SQLite's unary `+`
 * keeps the column out of index choice; PostgreSQL plans from its statistics.
 */
export const filterOnly = (d: Dialect, column: string): string => (d.kind === 'sqlite' ? `+${column}` : column);

/**
 * Collects parameters while a statement is assembled: `bind(value)` appends the value and returns its
 * placeholder, so dynamic WHERE/SET clauses never miscount positions.
 */
export class Params {
  readonly values: unknown[] = [];
  constructor(private readonly dialect: Dialect) {}
  bind = (value: unknown): string => {
    this.values.push(value);
    return this.dialect.p(this.values.length);
  };
  list(values: readonly unknown[]): string {
    return values.map(this.bind).join(', ');
  }
}

/** True for a violated UNIQUE or PRIMARY KEY constraint, on either driver, wrapped by TypeORM or not. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.driverError) return isUniqueViolation(e.driverError);
  if (e.code === '23505') return true;
  return (
    e.code === 'SQLITE_CONSTRAINT' &&
    typeof e.message === 'string' &&
    /UNIQUE constraint failed|PRIMARY KEY/.test(e.message)
  );
}

/** True for a violated FOREIGN KEY constraint (a row whose parent is gone), on either driver. */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; driverError?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.driverError) return isForeignKeyViolation(e.driverError);
  if (e.code === '23503') return true;
  return e.code === 'SQLITE_CONSTRAINT' && typeof e.message === 'string' && /FOREIGN KEY constraint failed/.test(e.message);
}
