import { chmod, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type * as Tar from 'tar';
import { formloomMigrations, openMigratedStorage, sqliteFile } from '@formloom/storage-typeorm';
import { ARCHIVE_PATHS, BackupError, keyFingerprint, parseManifest, sha256File, SIGNING_CRL, type BackupManifest } from './manifest';
import { signingCrls } from './backup';
import { SqliteFile } from './sqlite-file';

export interface RestoreOptions {
  /** The archive `createBackup` wrote. */
  file: string;
  /** Where the database goes (`sqlite:<path>`). */
  databaseUrl: string;
  /** The data folder that receives `blobs/`, `signing.p12` and (when the archive has it) `secret.key`. */
  dataDir: string;
  /** `FORMLOOM_SECRET_KEY` when the instance takes its key from the environment. */
  secretKeyFromEnv?: string | null;
  /** Replace an existing database; its files are moved to `before-restore-<time>/` in the data folder, not deleted. */
  force?: boolean;
  now?: () => Date;
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Rows per table as restored (equal to the manifest's, checked). */
  counts: Record<string, number>;
  blobs: number;
  /** Migrations applied after the restore: the archive came from an older Formloom. */
  migrated: string[];
  /** Sign-in sessions the archive held, all ended: everyone signs in again. */
  sessions_ended: number;
  /** Where the replaced files went (`force`), or null. */
  moved_aside: string | null;
}

export const POSTGRES_RESTORE_GUIDANCE =
  'on PostgreSQL, restore a pg_dump archive with pg_restore, every instance stopped: pg_restore --clean --if-exists -d <database> formloom.dump (docs/backup-and-restore.md)';

/**
 * Brings an instance back from an archive: every checksum and row count is checked, and a schema newer than this
 * Formloom is refused, before anything in the data folder changes; the files are then renamed into place, newer
 * migrations run, and the archive's sign-in sessions are ended (docs/backup-and-restore.md). The server must be
 * stopped.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const dbFile = sqliteFile(options.databaseUrl);
  if (dbFile === null) throw new BackupError(POSTGRES_RESTORE_GUIDANCE);
  const dataDir = resolve(options.dataDir);
  await stat(options.file).catch(() => {
    throw new BackupError(`cannot read ${options.file}`);
  });
  const existing = await exists(dbFile);
  if (existing && !options.force) {
    throw new BackupError(`${dbFile} already holds a database: restore into an empty data folder, or stop the server and pass --force to replace it (its files are kept in before-restore-<time>/)`);
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const staging = await mkdtemp(join(dataDir, '.restore-'));
  try {
    const manifest = await unpack(options.file, staging);
    await checkFiles(manifest, staging);
    const known = new Set(formloomMigrations.map((m) => m.name));
    const unknown = manifest.migrations.filter((m) => !known.has(m));
    if (unknown.length) {
      throw new BackupError(`the archive was made by a newer Formloom (${manifest.formloom_version}; migration ${unknown[0]} is unknown here): upgrade Formloom, then restore`);
    }
    const counts = await countsOf(join(staging, ARCHIVE_PATHS.database));
    const differs = Object.keys({ ...counts, ...manifest.counts }).filter((t) => counts[t] !== manifest.counts[t]);
    if (differs.length) throw new BackupError(`the archive's database does not hold the rows its manifest lists (table ${differs[0]}): the archive is damaged`);
    const keyFromArchive = manifest.includes_secret_key ? (await readFile(join(staging, ARCHIVE_PATHS.secretKey), 'utf8')).trim() : null;
    await checkSecretKey(manifest, keyFromArchive, options.secretKeyFromEnv?.trim() || null, dataDir, existing);

    const movedAside = existing ? await moveAside(dataDir, dbFile, options.now?.() ?? new Date(), keyFromArchive !== null) : null;
    await mkdir(dirname(dbFile), { recursive: true, mode: 0o700 });
    await rename(join(staging, ARCHIVE_PATHS.database), dbFile);
    const blobCount = manifest.files.filter((f) => f.path.startsWith(`${ARCHIVE_PATHS.blobs}/`)).length;
    if (await exists(join(staging, ARCHIVE_PATHS.blobs))) await rename(join(staging, ARCHIVE_PATHS.blobs), join(dataDir, 'blobs'));
    if (await exists(join(staging, ARCHIVE_PATHS.signingP12))) await rename(join(staging, ARCHIVE_PATHS.signingP12), join(dataDir, 'signing.p12'));
    for (const crl of await signingCrls(staging)) await rename(join(staging, crl), join(dataDir, crl));
    if (keyFromArchive !== null && !(await exists(join(dataDir, 'secret.key')))) {
      await rename(join(staging, ARCHIVE_PATHS.secretKey), join(dataDir, 'secret.key'));
      await chmod(join(dataDir, 'secret.key'), 0o600);
    }
    const storage = await openMigratedStorage(options.databaseUrl);
    await storage.close();
    const after = await SqliteFile.open(dbFile, 'write');
    let sessions = 0;
    let migrated: string[];
    try {
      migrated = (await after.migrations()).filter((m) => !manifest.migrations.includes(m));
      sessions = Number((await after.all('SELECT COUNT(*) AS n FROM sign_in_sessions'))[0]?.n ?? 0);
      await after.run('DELETE FROM sign_in_sessions');
    } finally {
      await after.close();
    }
    return { manifest, counts, blobs: blobCount, migrated, sessions_ended: sessions, moved_aside: movedAside };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

const ALLOWED = (path: string) =>
  path === ARCHIVE_PATHS.manifest ||
  path === ARCHIVE_PATHS.database ||
  path === ARCHIVE_PATHS.signingP12 ||
  path === ARCHIVE_PATHS.secretKey ||
  SIGNING_CRL.test(path) ||
  path.startsWith(`${ARCHIVE_PATHS.blobs}/`);

/** Extracts regular files at the archive's known paths only (no links, nothing outside the staging folder). */
async function unpack(file: string, staging: string): Promise<BackupManifest> {
  const refused: string[] = [];
  try {
    // Loaded here, not at start (docs/benchmarks.md, "Where the memory goes").
    await (require('tar') as typeof Tar).extract({
      file,
      cwd: staging,
      strict: true,
      filter: (path, entry) => {
        const clean = path.replace(/^\.\//, '').replace(/\/$/, '');
        const ok = ('type' in entry && (entry.type === 'File' || entry.type === 'Directory')) && (ALLOWED(clean) || clean === ARCHIVE_PATHS.blobs || clean === 'database' || clean.startsWith(`${ARCHIVE_PATHS.blobs}/`));
        if (!ok) refused.push(clean);
        return ok;
      },
    });
  } catch (e) {
    throw new BackupError(`cannot read ${file} as a formloom backup: ${(e as Error).message}`);
  }
  if (refused.length) throw new BackupError(`the archive holds what a formloom backup never does (${refused[0]}): refused`);
  const text = await readFile(join(staging, ARCHIVE_PATHS.manifest), 'utf8').catch(() => {
    throw new BackupError(`${file} has no manifest.json: is it a formloom backup?`);
  });
  return parseManifest(text);
}

/** Every listed file with its size and checksum, and nothing unlisted. */
async function checkFiles(manifest: BackupManifest, staging: string): Promise<void> {
  if (!manifest.files.some((f) => f.path === ARCHIVE_PATHS.database)) throw new BackupError('the archive holds no database');
  const listed = new Set(manifest.files.map((f) => f.path));
  for (const f of manifest.files) {
    if (!ALLOWED(f.path) || f.path.split('/').includes('..')) throw new BackupError(`the manifest names a path a backup never holds: ${f.path}`);
    const actual = await sha256File(join(staging, f.path)).catch(() => null);
    if (!actual) throw new BackupError(`the archive lacks ${f.path}, which its manifest lists: the archive is damaged`);
    if (actual.size !== f.size || actual.sha256 !== f.sha256) throw new BackupError(`${f.path} does not match its checksum: the archive is damaged`);
  }
  for (const path of await filesUnder(staging)) {
    if (path !== ARCHIVE_PATHS.manifest && !listed.has(path)) throw new BackupError(`the archive holds ${path}, which its manifest does not list: the archive is damaged`);
  }
}

async function countsOf(file: string): Promise<Record<string, number>> {
  const db = await SqliteFile.open(file, 'read');
  try {
    return await db.counts();
  } finally {
    await db.close();
  }
}

/**
 * The restored database's stored secrets open only with the key they were sealed with: the archive's own, or the
 * one this instance will use (the environment's or the data folder's), checked by fingerprint.
 */
async function checkSecretKey(manifest: BackupManifest, fromArchive: string | null, fromEnv: string | null, dataDir: string, replacing: boolean): Promise<void> {
  const want = manifest.secret_key_fingerprint;
  if (want === null) return;
  const inFolder = replacing && fromArchive !== null ? null : await readFile(join(dataDir, 'secret.key'), 'utf8').then((k) => k.trim(), () => null);
  const inUse = fromEnv ?? inFolder;
  if (inUse !== null && keyFingerprint(inUse) !== want) {
    const where = fromEnv ? 'FORMLOOM_SECRET_KEY' : join(dataDir, 'secret.key');
    throw new BackupError(`${where} is not the secret key this archive's secrets were sealed with: set the instance's original key there (or restore into a data folder without one${fromArchive ? '' : ', from an archive made with --with-secret-key'})`);
  }
  if (inUse === null && fromArchive === null) {
    throw new BackupError(`the archive does not hold its secret key: put the instance's key in ${join(dataDir, 'secret.key')} or FORMLOOM_SECRET_KEY first (or back up with --with-secret-key)`);
  }
}

/** Moves the files a restore replaces into `before-restore-<time>/`, so a mistaken restore can be undone by hand. */
async function moveAside(dataDir: string, dbFile: string, now: Date, replaceKey: boolean): Promise<string> {
  const aside = join(dataDir, `before-restore-${now.toISOString().replace(/[:.]/g, '-')}`);
  await mkdir(aside, { mode: 0o700 });
  const crls = (await signingCrls(dataDir)).map((n) => join(dataDir, n));
  const names = [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, join(dataDir, 'blobs'), join(dataDir, 'signing.p12'), ...crls, ...(replaceKey ? [join(dataDir, 'secret.key')] : [])];
  for (const from of names) {
    if (await exists(from)) await rename(from, join(aside, from.split(sep).pop()!));
  }
  return aside;
}

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(relative(root, p).split(sep).join('/'));
    }
  };
  await walk(root);
  return out;
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(() => true, () => false);
}
