import { DataSource, type LoggerOptions } from 'typeorm';
import { formloomEntities } from './tables';
import type * as Migrations from './migrations';
import { formloomMigrationNames } from './migrations/names';
import { loadDriver, type RequireDriver } from './drivers';

export interface CreateDataSourceOptions {
  /**
   * PostgreSQL only: the schema that holds Formloom's tables. It must exist. It also becomes the search
   * path of the pool's connections, so unqualified SQL sees the same tables.
   */
  schema?: string;
  /** PostgreSQL only: the most pooled connections (default 10). */
  poolSize?: number;
  /** SQLite only: how long a statement waits for another process's write lock (default 5000 ms). */
  busyTimeoutMs?: number;
  /**
   * SQLite only: `normal` (default) syncs the write-ahead log at checkpoints rather than on every commit:
   * the database stays consistent on power loss but may lose the last commits; `full` syncs every commit.
   */
  sqliteSynchronous?: 'normal' | 'full';
  /** TypeORM logging (default off). */
  logging?: LoggerOptions;
  /**
   * Loads the driver module (`sqlite3` or `pg`, optional peer dependencies); `require` by default. A missing
   * driver is reported by name (see `loadDriver`).
   */
  requireDriver?: RequireDriver;
  /**
   * `false`: the data source knows no migration and never loads their code (a server whose database another
   * process migrates: docs/operations.md, "Memory"); `runMigrations` refuses it, `pendingMigrations` still
   * reads what is left to apply. Default `true`.
   */
  migrations?: boolean;
}

/** Formloom's migrations, loaded at their first use (CommonJS caches them after), not with this module. */
const loadMigrations = () => (require('./migrations') as typeof Migrations).formloomMigrations;

export type DatabaseUrl =
  | { kind: 'sqlite'; path: string }
  | { kind: 'postgres'; url: string };

/**
 * The sqlite3 module with `verbose()` made a no-op. TypeORM calls `verbose()` on load, which wraps every
 * statement call in a stack capture and `util.inspect` of its arguments: about 15% of the CPU of a simple
 * read, measured by the benchmark's profile. Errors still carry the SQL in our adapter's messages.
 */
function quietSqlite3(requireDriver?: RequireDriver): unknown {
  const sqlite3 = loadDriver('sqlite3', requireDriver) as Record<string, unknown>;
  return new Proxy(sqlite3, { get: (target, key) => (key === 'verbose' ? () => target : target[key as string]) });
}

/** Reads `sqlite:<path>` (`sqlite::memory:` too) or `postgres://` / `postgresql://` URLs. */
export function parseDatabaseUrl(url: string): DatabaseUrl {
  if (url.startsWith('sqlite:')) {
    let path = url.slice('sqlite:'.length);
    if (path.startsWith('//')) path = path.slice(2);
    if (!path) throw new Error(`No file in database URL ${url}`);
    return { kind: 'sqlite', path };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  throw new Error(`Unsupported database URL ${url.replace(/\/\/[^@/]*@/, '//***@')}: use sqlite:<path> or postgres://`);
}

const MIGRATIONS_TABLE = 'formloom_migrations';

/**
 * A DataSource for Formloom's tables, not yet initialized (call `initialize()`, then `runMigrations`).
 * SQLite runs in WAL mode with a busy timeout; its parent directory is created on initialize.
 */
export function createDataSource(url: string, opts: CreateDataSourceOptions = {}): DataSource {
  const parsed = parseDatabaseUrl(url);
  const common = {
    entities: [...formloomEntities],
    migrations: opts.migrations === false ? [] : [...loadMigrations()],
    migrationsTableName: MIGRATIONS_TABLE,
    synchronize: false,
    logging: opts.logging ?? false,
  };
  if (parsed.kind === 'sqlite') {
    const memory = parsed.path === ':memory:';
    const dataSource = new DataSource({
      ...common,
      type: 'sqlite',
      database: parsed.path,
      driver: quietSqlite3(opts.requireDriver),
      enableWAL: !memory,
      busyTimeout: opts.busyTimeoutMs ?? 5000,
    });
    // TypeORM's sqlite driver has no option for this pragma: set it right after the connection opens.
    const initialize = dataSource.initialize.bind(dataSource);
    dataSource.initialize = async () => {
      await initialize();
      await dataSource.query(`PRAGMA synchronous = ${opts.sqliteSynchronous === 'full' ? 'FULL' : 'NORMAL'}`);
      return dataSource;
    };
    return dataSource;
  }
  const extra: Record<string, unknown> = { max: opts.poolSize ?? 10 };
  if (opts.schema) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(opts.schema)) throw new Error(`Invalid schema name ${opts.schema}`);
    extra.options = `-c search_path=${opts.schema}`;
  }
  return new DataSource({
    ...common,
    type: 'postgres',
    url: parsed.url,
    driver: loadDriver('pg', opts.requireDriver),
    schema: opts.schema,
    applicationName: 'formloom',
    extra,
  });
}

/**
 * Applies Formloom's pending migrations (initializing the data source if needed) and returns the names
 * of those applied. A host's own DataSource must list `formloomMigrations` in its `migrations`.
 */
export async function runMigrations(dataSource: DataSource): Promise<string[]> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const registered = new Set(dataSource.migrations.map((m) => m.constructor));
  const missing = loadMigrations().filter((m) => !registered.has(m));
  if (missing.length > 0) {
    throw new Error(`The data source lacks Formloom's migrations: add formloomMigrations to its options`);
  }
  if (dataSource.options.type === 'sqlite') return runSqliteMigrations(dataSource);
  return withMigrationLock(dataSource, async () => (await dataSource.runMigrations({ transaction: 'each' })).map((m) => m.name));
}

/** How long a process waits for another one's migrations (a backfill of a large database takes a while). */
const MIGRATION_WAIT_MS = 10 * 60_000;

/**
 * SQLite: every pending migration in one `BEGIN IMMEDIATE` transaction, which also reads which ones are
 * pending. Two processes opening a new database at once (the server and a `formloom` command) then take
 * turns: the second waits for the write lock and finds nothing left to do, instead of running the same
 * migrations again ("table already exists"). Foreign keys are off meanwhile (SQLite ignores the pragma
 * inside a transaction), as table rebuilds need, and checked before the commit.
 */
async function runSqliteMigrations(dataSource: DataSource): Promise<string[]> {
  // Up to date (every `formloom` command on a running server's file): no write lock is asked for. Under a
  // steady stream of submissions the lock is free only between two of their transactions, and SQLite's busy
  // handler polls for it, so a command could wait long for a lock it had no use for.
  if (await sqliteUpToDate(dataSource)) return [];
  const busyTimeout = (dataSource.options as { busyTimeout?: number }).busyTimeout ?? 5000;
  await dataSource.query('PRAGMA foreign_keys = OFF');
  try {
    await dataSource.query(`PRAGMA busy_timeout = ${MIGRATION_WAIT_MS}`);
    try {
      await dataSource.query('BEGIN IMMEDIATE');
    } finally {
      await dataSource.query(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(busyTimeout))}`);
    }
    try {
      const applied = await dataSource.runMigrations({ transaction: 'none' });
      const broken = (await dataSource.query('PRAGMA foreign_key_check')) as Array<{ table: string; parent: string }>;
      if (broken.length > 0) {
        throw new Error(`Migrations left rows of ${broken[0]!.table} without their ${broken[0]!.parent} row (${broken.length} in all)`);
      }
      await dataSource.query('COMMIT');
      return applied.map((m) => m.name);
    } catch (e) {
      await dataSource.query('ROLLBACK').catch(() => undefined);
      throw e;
    }
  } finally {
    // The cascades the storage relies on would silently stop with foreign keys left off.
    if (dataSource.isInitialized) await dataSource.query('PRAGMA foreign_keys = ON');
  }
}

/**
 * The names of Formloom's migrations not yet applied to the database, in order (all of them on a new one),
 * read from the migrations table alone: no migration's code is loaded and no lock is taken. Initializes the
 * data source if needed.
 */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  if (!dataSource.isInitialized) await dataSource.initialize();
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const quoted = `"${table.replace(/"/g, '""')}"`;
  const exists =
    dataSource.options.type === 'sqlite'
      ? ((await dataSource.query(`SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?`, [table])) as unknown[]).length > 0
      : ((await dataSource.query(`SELECT to_regclass($1) IS NOT NULL AS x`, [schemaQualified(dataSource, quoted)])) as Array<{ x: boolean }>)[0]!.x;
  if (!exists) return [...formloomMigrationNames];
  const rows = (await dataSource.query(`SELECT name FROM ${schemaQualified(dataSource, quoted)}`)) as Array<{ name: string }>;
  const applied = new Set(rows.map((r) => r.name));
  return formloomMigrationNames.filter((name) => !applied.has(name));
}

/** `quoted` in the data source's PostgreSQL schema when it names one (else the search path finds it). */
function schemaQualified(dataSource: DataSource, quoted: string): string {
  const schema = (dataSource.options as { schema?: string }).schema;
  return schema && dataSource.options.type !== 'sqlite' ? `"${schema.replace(/"/g, '""')}".${quoted}` : quoted;
}

/** Whether every migration of the data source is recorded as applied (a read: no lock taken). */
async function sqliteUpToDate(dataSource: DataSource): Promise<boolean> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const found = (await dataSource.query(`SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?`, [table])) as unknown[];
  if (found.length === 0) return false;
  const rows = (await dataSource.query(`SELECT name FROM "${table.replace(/"/g, '""')}"`)) as Array<{ name: string }>;
  const applied = new Set(rows.map((r) => r.name));
  return dataSource.migrations.every((m) => applied.has(m.name ?? m.constructor.name));
}

/**
 * PostgreSQL: migrations under a session advisory lock named after the schema, so instances starting
 * together on one database take turns (the later ones find nothing pending).
 */
async function withMigrationLock<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema]);
    try {
      return await work();
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1, hashtext($2))', [MIGRATION_LOCK_CLASS, schema]);
    }
  } finally {
    await runner.release();
  }
}

/** The first half of Formloom's advisory lock key (the second is the schema's hash): 'FLMG'. */
const MIGRATION_LOCK_CLASS = 0x464c4d47;
