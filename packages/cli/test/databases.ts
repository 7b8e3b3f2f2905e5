import { createTestDatabase, type TestDatabaseKind } from '@formloom/storage-typeorm/testing';

export type DatabaseKind = TestDatabaseKind;

/** A throw-away database for one test file, with raw SQL on it to check what the CLI stored. */
export interface ScratchDatabase {
  kind: DatabaseKind;
  /** What the CLI gets as `FORMLOOM_DATABASE_URL`. */
  url: string;
  /** Raw SQL; write placeholders as `$1, $2, ...` whatever the database. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** Wraps the storage package's test databases (a temp SQLite file, or a PostgreSQL schema of its own). */
export async function scratchDatabase(kind: DatabaseKind): Promise<ScratchDatabase> {
  const db = await createTestDatabase(kind, { poolSize: 2 });
  return {
    kind,
    url: db.url,
    query: (sql, params) => db.raw(sql.replace(/\$(\d+)/g, (_, i: string) => db.placeholder(Number(i))), params),
    drop: () => db.close(),
  };
}

/** A database whose tables are all dropped, as on a fresh machine. */
export async function emptyDatabase(kind: DatabaseKind): Promise<ScratchDatabase> {
  const db = await scratchDatabase(kind);
  const tables = await db.query<{ name: string }>(
    kind === 'sqlite'
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
      : 'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema()',
  );
  for (const { name } of tables) await db.query(`DROP TABLE IF EXISTS "${name}"${kind === 'postgres' ? ' CASCADE' : ''}`);
  return db;
}
