import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createBackup, restoreBackup, type BackupManifest } from '@formloom/backup';
import { readConfig, type Env } from './config';
import { describeDatabase } from './describe-database';
import { UsageError } from './usage-error';
import { cliVersion } from './version';

/** Their entries in `formloom --help` (they take a file and must not open the database first, so they are not COMMANDS). */
export const BACKUP_HELP = [
  {
    name: 'backup',
    usage: 'backup <file.tar.gz> [--with-secret-key]',
    summary: 'write one archive of the running instance: a consistent database snapshot, the files and a checked manifest',
    flags: { 'with-secret-key': 'put the secret key in the archive too (keep such an archive as safe as the key)' },
    notes: [
      'SQLite only, taken while the server runs and writes; on PostgreSQL use pg_dump (docs/backup-and-restore.md).',
      'Prints {"file","bytes","created_at","tables","rows","files","migrations"}.',
    ],
  },
  {
    name: 'restore',
    usage: 'restore <file.tar.gz> [--force]',
    summary: 'bring an instance back from an archive (server stopped): checksums, row counts and schema checked first',
    flags: { force: 'replace an existing database; its files move to before-restore-<time>/ in the data dir' },
    notes: [
      'Refuses an archive from a newer Formloom and one whose secret key is not the instance\'s; ends every sign-in',
      'session. Prints {"restored","rows","files","migrated","sessions_ended","moved_aside"}.',
    ],
  },
];

/** `formloom backup` and `formloom restore`, or null for another command. Stderr names the database. */
export async function runBackupCommand(argv: string[], env: Env): Promise<{ output: Record<string, unknown>; stderr: string } | null> {
  if (argv[0] !== 'backup' && argv[0] !== 'restore') return null;
  const backup = argv[0] === 'backup';
  const { values, positionals } = parse(argv.slice(1), backup);
  if (positionals.length !== 1) throw new UsageError(`usage: formloom ${BACKUP_HELP[backup ? 0 : 1]!.usage}`);
  const config = readConfig(env);
  const stderr = `formloom: database ${describeDatabase(config.databaseUrl)}\n`;
  const fromEnv = env.FORMLOOM_SECRET_KEY?.trim() || null;
  if (backup) {
    const secretKey = fromEnv ?? (await readFile(join(config.dataDir, 'secret.key'), 'utf8').then((k) => k.trim(), () => null));
    const result = await createBackup({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      file: positionals[0]!,
      secretKey,
      includeSecretKey: values['with-secret-key'] === true,
      formloomVersion: cliVersion(),
    });
    return { output: { file: result.file, bytes: result.bytes, ...summary(result.manifest) }, stderr };
  }
  const result = await restoreBackup({
    file: positionals[0]!,
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    secretKeyFromEnv: fromEnv,
    force: values.force === true,
  });
  return {
    output: {
      restored: true,
      created_at: result.manifest.created_at,
      rows: total(result.counts),
      files: result.manifest.files.length,
      blobs: result.blobs,
      migrated: result.migrated,
      sessions_ended: result.sessions_ended,
      moved_aside: result.moved_aside,
    },
    stderr,
  };
}

function summary(m: BackupManifest) {
  return { created_at: m.created_at, tables: Object.keys(m.counts).length, rows: total(m.counts), files: m.files.length, migrations: m.migrations.length };
}

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}

function parse(args: string[], backup: boolean) {
  try {
    return parseArgs({
      args,
      options: backup ? { 'with-secret-key': { type: 'boolean' } } : { force: { type: 'boolean' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}
