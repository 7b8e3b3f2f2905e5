import { chmod, copyFile, mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type * as Tar from 'tar';
import { sqliteFile } from '@formloom/storage-typeorm';
import { ARCHIVE_PATHS, BACKUP_FORMAT, BackupError, keyFingerprint, sha256File, SIGNING_CRL, type BackupManifest, type ManifestFile } from './manifest';
import { snapshotSqlite, SqliteFile } from './sqlite-file';

export interface BackupOptions {
  /** The instance's database (`sqlite:<path>`); PostgreSQL is backed up with pg_dump (docs/backup-and-restore.md). */
  databaseUrl: string;
  /** The data folder: `blobs/` and `signing.p12` are taken from it when present. */
  dataDir: string;
  /** Where the archive goes (a `.tar.gz`); written under a temporary name, then renamed. */
  file: string;
  /** The secret key in use, so a restore can tell whether it has the right one (only its fingerprint is kept). */
  secretKey: string | null;
  /** Put the secret key itself into the archive (then the archive alone opens every stored secret). */
  includeSecretKey?: boolean;
  /** The Formloom version that writes the archive. */
  formloomVersion: string;
  now?: () => Date;
}

export interface BackupResult {
  file: string;
  bytes: number;
  manifest: BackupManifest;
}

/** What `formloom backup` says on PostgreSQL, where the database's own tool takes a consistent dump. */
export const POSTGRES_BACKUP_GUIDANCE =
  'on PostgreSQL, back up with pg_dump, which takes one consistent snapshot while the instances run: ' +
  'pg_dump -Fc -d <database> -f formloom.dump (with FORMLOOM_BLOB_STORE=postgres the files are in it too; docs/backup-and-restore.md)';

/**
 * Writes one archive of a running instance: a consistent snapshot of the SQLite database (`VACUUM INTO`, taken
 * while the server writes), the blob files, the sealing certificate with its CA's revocation list, and a manifest with every file's checksum
 * and every table's row count (docs/backup-and-restore.md).
 */
export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const dbFile = sqliteFile(options.databaseUrl);
  if (dbFile === null) throw new BackupError(POSTGRES_BACKUP_GUIDANCE);
  await stat(dbFile).catch(() => {
    throw new BackupError(`there is no database at ${dbFile}: set FORMLOOM_DATA_DIR (or FORMLOOM_DATABASE_URL) to the instance's`);
  });
  const target = resolve(options.file);
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  // Staged beside the archive, so the final rename stays on one file system.
  const staging = await mkdtemp(join(dirname(target), '.formloom-backup-'));
  try {
    const files: string[] = [];
    const dbCopy = join(staging, ARCHIVE_PATHS.database);
    await mkdir(dirname(dbCopy), { recursive: true });
    await snapshotSqlite(dbFile, dbCopy);
    files.push(ARCHIVE_PATHS.database);
    const snapshot = await SqliteFile.open(dbCopy, 'read');
    let migrations: string[];
    let counts: Record<string, number>;
    try {
      migrations = await snapshot.migrations();
      counts = await snapshot.counts();
    } finally {
      await snapshot.close();
    }
    files.push(...(await copyBlobs(join(options.dataDir, 'blobs'), join(staging, ARCHIVE_PATHS.blobs))));
    if (await copyIfPresent(join(options.dataDir, 'signing.p12'), join(staging, ARCHIVE_PATHS.signingP12))) files.push(ARCHIVE_PATHS.signingP12);
    for (const crl of await signingCrls(options.dataDir)) if (await copyIfPresent(join(options.dataDir, crl), join(staging, crl))) files.push(crl);
    const includeKey = options.includeSecretKey === true;
    if (includeKey) {
      if (!options.secretKey) throw new BackupError('--with-secret-key: this instance has no secret key yet (it is made at the first start)');
      await writeFile(join(staging, ARCHIVE_PATHS.secretKey), `${options.secretKey.trim()}\n`, { mode: 0o600 });
      files.push(ARCHIVE_PATHS.secretKey);
    }
    const listed: ManifestFile[] = [];
    for (const path of files) listed.push({ path, ...(await sha256File(join(staging, path))) });
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formloom_version: options.formloomVersion,
      created_at: (options.now?.() ?? new Date()).toISOString(),
      database: 'sqlite',
      migrations,
      counts,
      secret_key_fingerprint: options.secretKey ? keyFingerprint(options.secretKey) : null,
      includes_secret_key: includeKey,
      files: listed,
    };
    await writeFile(join(staging, ARCHIVE_PATHS.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
    const partial = join(staging, basename(target));
    // The manifest first: a reader (or a person with `tar tzf`) sees what the archive holds before its files.
    // tar loads with the first archive, not with the package the server starts with (docs/benchmarks.md, "Where
    // the memory goes").
    await (require('tar') as typeof Tar).create({ gzip: true, file: partial, cwd: staging, portable: true, noDirRecurse: true }, [ARCHIVE_PATHS.manifest, ...files]);
    await chmod(partial, 0o600);
    await rename(partial, target);
    return { file: target, bytes: (await stat(target)).size, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Copies the blob store's files (finished ones: a write in progress is a `.tmp` file that may vanish). */
async function copyBlobs(from: string, to: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, e.name);
      if (e.isDirectory()) await walk(path);
      else if (e.isFile() && !e.name.endsWith('.tmp')) {
        const rel = relative(from, path).split(sep).join('/');
        // A blob deleted since the listing (an erased response's upload) is left out, as the database snapshot may be.
        if (await copyIfPresent(path, join(to, rel))) out.push(`${ARCHIVE_PATHS.blobs}/${rel}`);
      }
    }
  };
  await walk(from);
  return out;
}

/** The instance CA's revocation lists in the data folder (one per CA it has had). */
export async function signingCrls(dataDir: string): Promise<string[]> {
  const names = await readdir(dataDir).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return [] as string[];
    throw e;
  });
  return names.filter((n) => SIGNING_CRL.test(n)).sort();
}

async function copyIfPresent(from: string, to: string): Promise<boolean> {
  try {
    await mkdir(dirname(to), { recursive: true });
    await copyFile(from, to);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}
