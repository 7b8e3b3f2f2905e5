import { createHash, randomBytes } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource, runMigrations } from './data-source';
import { formloomMigrationNames } from './migrations/names';

/*
 * Migrated templates for test databases. Running every migration for each test database was the largest
 * single cost of the test suite (about 0.4 s on SQLite and 6 s on PostgreSQL each, some 300 times a run).
 * The migrations now run once into a template, named after a digest of the compiled migrations (a changed
 * migration makes a new template, never a stale one), and each test database is a copy: a file copy on
 * SQLite, `CREATE DATABASE ... TEMPLATE` on PostgreSQL. The first process that needs a template builds it;
 * the others wait (a rename on SQLite, an advisory lock on PostgreSQL) and copy.
 */

let digest: Promise<string> | undefined;

/** A digest of the migrations as compiled (their files' text), and of their names and order. */
export function migrationsDigest(): Promise<string> {
  digest ??= (async () => {
    const hash = createHash('sha256');
    hash.update(formloomMigrationNames.join(','));
    // The sources next to this file: dist/src/migrations/*.js when built, src/migrations/*.ts under ts-node.
    const dir = join(__dirname, 'migrations');
    const files = (await readdir(dir)).filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith('.d.ts')).sort();
    for (const f of files) hash.update(f).update(await readFile(join(dir, f)));
    hash.update(await readFile(join(__dirname, `data-source${__filename.slice(__filename.lastIndexOf('.'))}`)));
    return hash.digest('hex').slice(0, 16);
  })();
  return digest;
}

const SQLITE_DIR = join(tmpdir(), 'formloom-test-templates');
/** A template not used for this long (by its access time, refreshed at each use) is deleted. */
const SQLITE_TEMPLATE_KEEP_MS = 24 * 3600_000;

let sqliteTemplate: Promise<string> | undefined;

/** The migrated SQLite template file of the current migrations, built if missing. */
function sqliteTemplateFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const file = join(SQLITE_DIR, `sqlite-${await migrationsDigest()}.sqlite`);
    if (await exists(file)) return file;
    await mkdir(SQLITE_DIR, { recursive: true });
    await dropOldSqliteTemplates(file);
    // Built under a name of its own and renamed into place: a reader sees the whole file or none. Two
    // processes building at once write the same content; the last rename wins.
    const building = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const dataSource = createDataSource(`sqlite:${building}`);
    try {
      await runMigrations(dataSource);
      // Closing the last connection checkpoints the write-ahead log into the file and removes the log.
      await dataSource.destroy();
      await rename(building, file);
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await Promise.all(['', '-wal', '-shm'].map((s) => rm(`${building}${s}`, { force: true })));
    }
    return file;
  })();
  sqliteTemplate.catch(() => (sqliteTemplate = undefined));
  return sqliteTemplate;
}

/** Copies the migrated template to `file` (whose directory exists). */
export async function copySqliteTemplate(file: string): Promise<void> {
  try {
    await copyFile(await sqliteTemplateFile(), file);
  } catch (err) {
    // Deleted by another run's clean-up meanwhile: built again, once.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    sqliteTemplate = undefined;
    await copyFile(await sqliteTemplateFile(), file);
  }
}

async function dropOldSqliteTemplates(current: string): Promise<void> {
  for (const name of await readdir(SQLITE_DIR).catch(() => [] as string[])) {
    const path = join(SQLITE_DIR, name);
    if (path === current) continue;
    const info = await stat(path).catch(() => null);
    if (info && Date.now() - Math.max(info.atimeMs, info.mtimeMs) > SQLITE_TEMPLATE_KEEP_MS) await rm(path, { force: true });
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

/** The schema that holds the tables in the PostgreSQL template, and so in every copy of it. */
export const POSTGRES_TEMPLATE_SCHEMA = 'fl_tmpl_schema';
const TEMPLATE_PREFIX = 'fl_tmpl_';
/** The first half of the advisory lock key under which a template is built: 'FLTT'. */
const TEMPLATE_LOCK_CLASS = 0x464c5454;

export interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}

export async function withClient<T>(url: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const { Client } = require('pg') as { Client: new (config: { connectionString: string }) => PgClient };
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** `url` with its database replaced by `database` (the query, e.g. sslmode, kept). */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}

const pgTemplates = new Map<string, Promise<string>>();

/** The migrated PostgreSQL template database of the current migrations on `base`'s server, built if missing. */
function postgresTemplate(base: string): Promise<string> {
  let template = pgTemplates.get(base);
  if (!template) {
    template = buildPostgresTemplate(base);
    template.catch(() => pgTemplates.delete(base));
    pgTemplates.set(base, template);
  }
  return template;
}

async function buildPostgresTemplate(base: string): Promise<string> {
  const name = `${TEMPLATE_PREFIX}${await migrationsDigest()}`;
  await withClient(base, async (admin) => {
    // One builder at a time; the others find the template there once the lock is theirs.
    await admin.query('SELECT pg_advisory_lock($1, hashtext($2))', [TEMPLATE_LOCK_CLASS, name]);
    try {
      if ((await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rows.length) return;
      const building = `${name}_b`;
      // Left by a builder that died: its session, and so its lock, ended with it.
      await admin.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`);
      await admin.query(`CREATE DATABASE ${building}`);
      const url = withDatabase(base, building);
      await withClient(url, (c) => c.query(`CREATE SCHEMA ${POSTGRES_TEMPLATE_SCHEMA}`));
      // Two connections: runMigrations holds one for its advisory lock.
      const dataSource = createDataSource(url, { schema: POSTGRES_TEMPLATE_SCHEMA, poolSize: 2 });
      try {
        await runMigrations(dataSource);
      } finally {
        if (dataSource.isInitialized) await dataSource.destroy();
      }
      // No one may connect to a template: a copy is refused while another session is connected to it.
      await admin.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
      await admin.query(`COMMENT ON DATABASE ${name} IS 'formloom test template, built ${Math.floor(Date.now() / 1000)}'`);
    } finally {
      await admin.query('SELECT pg_advisory_unlock($1, hashtext($2))', [TEMPLATE_LOCK_CLASS, name]);
    }
  });
  return name;
}

/**
 * Creates database `database` on `base`'s server as a copy of the migrated template. False when the user
 * may not create databases (then the caller migrates a schema of its own instead).
 */
export async function copyPostgresTemplate(base: string, database: string): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    let template: string;
    try {
      template = await postgresTemplate(base);
    } catch (err) {
      if ((err as { code?: string }).code === '42501') return false; // insufficient_privilege: no CREATEDB
      throw err;
    }
    try {
      await withClient(base, (c) => c.query(`CREATE DATABASE ${database} TEMPLATE ${template}`));
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === '42501') return false;
      // Dropped by another run's clean-up of old templates: built again. Or briefly in use (55006).
      if (attempt < 3 && (code === '3D000' || code === '55006')) {
        if (code === '3D000') pgTemplates.delete(base);
        await new Promise((r) => setTimeout(r, 200 * (attempt + 1)));
        continue;
      }
      throw err;
    }
  }
}

/**
 * Takes a closed test database away: renamed to `fl_z<seconds in base 36>_<hex>` (a catalog change), then
 * dropped without waiting. PostgreSQL 15's DROP DATABASE forces an immediate checkpoint and waits for it
 * (1-5 s each on a busy machine, measured), and a test, or a file's last hook, waited for it at every close.
 * The drop runs on a connection that does not hold the process open; a drop a process did not see through is
 * swept after ten minutes (`dropStaleDatabases`). Falls back to a plain drop when the rename is refused.
 */
export async function retireDatabase(base: string, database: string): Promise<void> {
  // Each drop in the background holds a connection for its checkpoint: at most two per process, so a file
  // closing many databases at once cannot take more of the server's 100 connections than before; past
  // that, the close drops the database itself and waits, as it always did.
  if (backgroundDrops >= MAX_BACKGROUND_DROPS) {
    await withClient(base, (c) => c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
    return;
  }
  const retired = `fl_z${Math.floor(Date.now() / 1000).toString(36)}_${randomBytes(5).toString('hex')}`;
  backgroundDrops++; // the slot is this close's from now: two closes at once cannot both take the last one
  let renamed = false;
  try {
    renamed = await renameAway(base, database, retired);
  } finally {
    if (!renamed) backgroundDrops--;
  }
  if (renamed) dropInBackground(base, retired);
}

/** Renames `database` to `retired`, ending its sessions first; false when it was dropped instead or is gone. */
function renameAway(base: string, database: string, retired: string): Promise<boolean> {
  return withClient(base, async (c) => {
    for (let attempt = 0; attempt < 4; attempt++) {
      // A CLI child or a pool may still be connected: a database in use cannot be renamed.
      await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
      try {
        await c.query(`ALTER DATABASE ${database} RENAME TO ${retired}`);
        return true;
      } catch (err) {
        if ((err as { code?: string }).code === '3D000') return false; // gone already
        await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
      }
    }
    await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    return false;
  });
}

const MAX_BACKGROUND_DROPS = 2;
let backgroundDrops = 0;

function dropInBackground(base: string, database: string): void {
  const { Client } = require('pg') as {
    Client: new (config: { connectionString: string }) => PgClient & { on(event: 'error', listener: () => void): void; connection?: { stream?: { unref?(): void } } };
  };
  const client = new Client({ connectionString: base });
  // Nobody awaits this connection: an error on it (the server going away) must not become an uncaught one.
  client.on('error', () => undefined);
  const drop = async () => {
    await client.connect();
    client.connection?.stream?.unref?.();
    try {
      await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    } finally {
      await client.end();
    }
  };
  drop()
    .catch(() => undefined)
    .finally(() => backgroundDrops--);
}

/**
 * Drops the test databases (named `fl_t<seconds in base 36>_<hex>`) and templates crashed or old runs left,
 * and the retired ones (`fl_z...`) whose drop did not finish within ten minutes.
 */
export async function dropStaleDatabases(client: PgClient): Promise<void> {
  const cutoff = Date.now() / 1000 - 6 * 3600;
  const retiredCutoff = Date.now() / 1000 - 600;
  const { rows } = await client.query(
    `SELECT datname, shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname LIKE 'fl\\_t%' OR datname LIKE 'fl\\_z%'`,
  );
  for (const { datname, comment } of rows) {
    const name = String(datname);
    const built = /built (\d+)/.exec(String(comment ?? ''));
    const copy = /^fl_t([0-9a-z]+)_[0-9a-f]+$/.exec(name);
    const retired = /^fl_z([0-9a-z]+)_[0-9a-f]+$/.exec(name);
    const stale = name.startsWith(TEMPLATE_PREFIX)
      ? !!built && Number(built[1]) < cutoff
      : retired
        ? parseInt(retired[1]!, 36) < retiredCutoff
        : !!copy && parseInt(copy[1]!, 36) < cutoff;
    // Another process may be dropping the same database: that one's success is ours.
    if (stale) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  }
}
