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

/*
 * Throw-away migrated databases for tests: a SQLite file in its own temp dir, or a PostgreSQL schema of
 * its own. Each call is independent, so test files running in parallel processes never share tables.
 */

export type TestDatabaseKind = 'sqlite' | 'postgres';

export interface TestDatabase {
  kind: TestDatabaseKind;
  /**
   * A database URL that reaches the same tables: `sqlite:<file>`, or the PostgreSQL URL with the schema
   * as its search path (`?options=-c search_path=...`), e.g. for a CLI run as a child process.
   */
  url: string;
  /** The PostgreSQL schema, `undefined` on SQLite. */
  schema?: string;
  dataSource: DataSource;
  storage: TypeormStorage;
  /** The storage conformance suite's reads of the stored rows (raw SQL, bypassing the repositories). */
  probes: StorageProbes;
  /** Runs SQL with unqualified table names, under the storage's lock on SQLite. */
  raw(sql: string, params?: unknown[]): Promise<any[]>;
  /** The i-th (1-based) parameter placeholder of this database's SQL. */
  placeholder(i: number): string;
  /** Closes the storage and deletes the file or the schema. */
  close(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** PostgreSQL pool size (default 5: test files run in parallel and the server has ~100 connections). */
  poolSize?: number;
}

export const DEFAULT_TEST_PG_URL = 'postgres://postgres@127.0.0.1:5432/test';

export async function createTestDatabase(
  kind: TestDatabaseKind = 'sqlite',
  opts: TestDatabaseOptions = {},
): Promise<TestDatabase> {
  return kind === 'sqlite' ? createSqlite() : createPostgres(opts);
}

async function createSqlite(): Promise<TestDatabase> {
  const dir = await mkdtemp(join(tmpdir(), 'formloom-test-'));
  const url = `sqlite:${join(dir, 'formloom.sqlite')}`;
  const dataSource = createDataSource(url);
  try {
    await runMigrations(dataSource);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return finish('sqlite', url, undefined, dataSource, () => rm(dir, { recursive: true, force: true }));
}

async function createPostgres(opts: TestDatabaseOptions): Promise<TestDatabase> {
  const base = await postgresTestUrl();
  const schema = `fl_t${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(5).toString('hex')}`;
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
  return finish('postgres', url, schema, dataSource, dropSchema);
}

function finish(
  kind: TestDatabaseKind,
  url: string,
  schema: string | undefined,
  dataSource: DataSource,
  dispose: () => Promise<unknown>,
): TestDatabase {
  const { storage, raw, dialect } = openStorage(dataSource);
  let closing: Promise<void> | undefined;
  return {
    kind,
    url,
    schema,
    dataSource,
    storage,
    probes: sqlProbes(raw, dialect.p),
    raw,
    placeholder: dialect.p,
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

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const { Client } = require('pg') as { Client: new (config: { connectionString: string }) => PgClient };
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

let resolvedUrl: Promise<string> | undefined;

/**
 * The PostgreSQL server for tests: `FORMLOOM_TEST_PG_URL`, else the local `test` database as user
 * `postgres`, else as `root`. Resolved once per process; also drops schemas that crashed test runs left
 * behind (older than six hours, by the time in their name).
 */
export function postgresTestUrl(): Promise<string> {
  resolvedUrl ??= (async () => {
    const candidates = process.env.FORMLOOM_TEST_PG_URL
      ? [process.env.FORMLOOM_TEST_PG_URL]
      : [DEFAULT_TEST_PG_URL, DEFAULT_TEST_PG_URL.replace('//postgres@', '//root@')];
    const errors: string[] = [];
    for (const url of candidates) {
      try {
        await withClient(url, dropStaleSchemas);
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
