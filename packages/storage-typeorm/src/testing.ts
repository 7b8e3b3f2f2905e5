// TypeORM and @formloom/core (tsyringe) both need the Reflect metadata polyfill before they load.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource, runMigrations } from './data-source';
import type { StorageProbes } from '@formloom/core/testing';
import { openStorage, type TypeormStorage } from './storage';
import { sqlProbes } from './testing-probes';
import type { IndexerOptions, ResponseIndexer } from './repositories/background-indexer';
import { copyPostgresTemplate, copySqliteTemplate, dropStaleDatabases, POSTGRES_TEMPLATE_SCHEMA, retireDatabase, withClient, withDatabase, type PgClient } from './testing-templates';

/*
 * Throw-away migrated databases for tests: a SQLite file in its own temp dir, or a PostgreSQL database of
 * its own. Each call is independent, so test files running in parallel processes never share tables. Each
 * is a copy of a template the migrations ran into once (testing-templates.ts); where the PostgreSQL user
 * may not create databases, a schema of its own in the test database, migrated.
 */

export type TestDatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  kind: TestDatabaseKind;
  /**
   * A database URL that reaches the same tables: `sqlite:<file>`, or the PostgreSQL URL of the database
   * with the schema as its search path (`?options=-c search_path=...`), e.g. for a CLI run as a child
   * process. `url.split('?')[0]` with `schema` as the data source's schema reaches them too.
   */
  url: string;
  /** The PostgreSQL schema that holds the tables, `undefined` on SQLite. */
  schema?: string;
  /** The PostgreSQL database of this test database alone, `undefined` on SQLite and where it has a schema in the shared one. */
  database?: string;
  dataSource: DataSource;
  storage: TypeormStorage;
  /** The storage conformance suite's reads of the stored rows (raw SQL, bypassing the repositories). */
  probes: StorageProbes;
  /** Runs SQL with unqualified table names, under the storage's lock on SQLite. */
  raw(sql: string, params?: unknown[]): Promise<any[]>;
  /** The i-th (1-based) parameter placeholder of this database's SQL. */
  placeholder(i: number): string;
  /** The storage's analytics indexer (repositories/response-indexer.ts): `drain()` counts every queued response now. */
  indexer: Pick<ResponseIndexer, 'catchUp' | 'drain'>;
  /** Closes the storage and deletes the file, the database or the schema. */
  close(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** PostgreSQL pool size (default 5: test files run in parallel and the server has ~100 connections). */
  poolSize?: number;
  /** The analytics indexer's timing (e.g. hours, so that only reads catching up index anything). */
  indexer?: IndexerOptions;
}

export const DEFAULT_TEST_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

export async function createTestDatabase(
  kind: TestDatabaseKind = 'sqlite',
  opts: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  return kind === 'sqlite' ? createSqlite(opts) : createPostgres(opts);
}

async function createSqlite(opts: TestDatabaseOptions): Promise<TestDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-test-'));
  const file = join(dir, 'formloom.sqlite');
  const url = `sqlite:${file}`;
  const dataSource = createDataSource(url);
  try {
    await copySqliteTemplate(file);
    // Finds every migration applied (it checks, it does not assume) and opens the file as any app would.
    await runMigrations(dataSource);
  } catch (err) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return finish('sqlite', url, undefined, undefined, dataSource, () => rm(dir, { recursive: true, force: true }), opts);
}

async function createPostgres(opts: TestDatabaseOptions): Promise<TestDatabase> {
  const base = await postgresTestUrl();
  const name = `fl_t${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(5).toString('hex')}`;
  if (!(await copyPostgresTemplate(base, name))) return createPostgresSchema(base, name, opts);
  const dbUrl = withDatabase(base, name);
  const dropDatabase = () => retireDatabase(base, name);
  const dataSource = createDataSource(dbUrl, { schema: POSTGRES_TEMPLATE_SCHEMA, poolSize: opts.poolSize ?? 5 });
  try {
    await runMigrations(dataSource);
  } catch (err) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await dropDatabase();
    throw err;
  }
  const url = `${dbUrl}${dbUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${POSTGRES_TEMPLATE_SCHEMA}`)}`;
  return finish('postgres', url, POSTGRES_TEMPLATE_SCHEMA, name, dataSource, dropDatabase, opts);
}

/** Without the right to create databases: a schema of its own in the test database, migrated there. */
async function createPostgresSchema(base: string, schema: string, opts: TestDatabaseOptions): Promise<TestDatabase> {
  await withClient(base, (c) => c.query(`CREATE SCHEMA ${schema}`));
  const dropSchema = () => withClient(base, (c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  const dataSource = createDataSource(base, { schema, poolSize: opts.poolSize ?? 5 });
  try {
    await runMigrations(dataSource);
  } catch (err) {
    if (dataSource.isInitialized) await dataSource.destroy();
    await dropSchema();
    throw err;
  }
  const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return finish('postgres', url, schema, undefined, dataSource, dropSchema, opts);
}

function finish(
  kind: TestDatabaseKind,
  url: string,
  schema: string | undefined,
  database: string | undefined,
  dataSource: DataSource,
  dispose: () => Promise<unknown>,
  opts: TestDatabaseOptions,
): TestDatabase {
  const { storage, raw, dialect, indexer } = openStorage(dataSource, { indexer: opts.indexer });
  let closing: Promise<void> | undefined;
  return {
    kind,
    url,
    schema,
    database,
    dataSource,
    storage,
    probes: sqlProbes(raw, dialect.p, (formId) => indexer.catchUp(formId)),
    raw,
    placeholder: dialect.p,
    indexer,
    close: () =>
      (closing ??= (async () => {
        try {
          await storage.close();
        } finally {
          await dispose();
        }
      })()),
  };
}

/**
 * A migrated SQLite database at `file` (its folder must exist), copied from the template: for a test that
 * starts an app or a command on a file of its own choosing and is not about migrating a new one (a copy
 * takes 6-30 ms of CPU, the migrations 50-100 ms warm and more in a new process). The migrations of a new
 * file stay tested where they are the subject (the migration tests, and the self-hosted app's starts on an
 * empty data folder: self-hosted.test.ts, processes/main, startup/accounts-doc, migrations-in-child).
 */
export function migratedSqliteFile(file: string): Promise<void> {
  return copySqliteTemplate(file);
}

let resolvedUrl: Promise<string> | undefined;

/**
 * The PostgreSQL server for tests: `FORMLOOM_TEST_PG_URL`, else the local `test` database as user
 * `postgres`, else as `root`. Resolved once per process; also drops the databases and schemas that crashed
 * test runs left behind (older than six hours, by the time in their name).
 */
export function postgresTestUrl(): Promise<string> {
  resolvedUrl ??= (async () => {
    const candidates = process.env.FORMLOOM_TEST_PG_URL
      ? [process.env.FORMLOOM_TEST_PG_URL]
      : [DEFAULT_TEST_PG_URL, DEFAULT_TEST_PG_URL.replace('//postgres@', '//root@')];
    const errors: string[] = [];
    for (const url of candidates) {
      try {
        await withClient(url, async (c) => {
          await dropStaleSchemas(c);
          await dropStaleDatabases(c);
        });
        return url;
      } catch (err) {
        errors.push(`${url}: ${(err as Error).message}`);
      }
    }
    throw new Error(`No PostgreSQL for tests (set FORMLOOM_TEST_PG_URL): ${errors.join('; ')}`);
  })();
  return resolvedUrl;
}

async function dropStaleSchemas(client: PgClient): Promise<void> {
  const { rows } = await client.query(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'fl\\_t%'`);
  const cutoff = Date.now() / 1000 - 6 * 3600;
  for (const { nspname } of rows) {
    const match = /^fl_t([0-9a-z]+)_[0-9a-f]+$/.exec(String(nspname));
    if (!match || parseInt(match[1], 36) > cutoff) continue;
    // Another process may be dropping the same schema: that one's success is ours.
    await client.query(`DROP SCHEMA IF EXISTS ${nspname} CASCADE`).catch(() => undefined);
  }
}
