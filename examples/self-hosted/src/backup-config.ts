import { isAbsolute, join, resolve } from 'node:path';
import type { Env } from './config';

/** The scheduled backups of docs/backup-and-restore.md ("Scheduled backups"), from `FORMLOOM_BACKUP_*`. */
export interface BackupConfig {
  /** `FORMLOOM_BACKUP_DIR` (default `<data dir>/backups`), absolute. */
  dir: string;
  /** `FORMLOOM_BACKUP_KEEP` (default 7): archives kept in the folder. */
  keep: number;
  /** `FORMLOOM_BACKUP_INTERVAL_HOURS` (default: none scheduled): hours between archives. */
  intervalHours: number | null;
  /** `FORMLOOM_BACKUP_WITH_SECRET_KEY=1`: archives hold the secret key too. */
  includeSecretKey: boolean;
}

/** Reads `FORMLOOM_BACKUP_*`; throws one line per bad variable, naming it (docs/configuration.md). */
export function readBackupConfig(env: Env, dataDir: string, cwd = process.cwd()): BackupConfig {
  const problems: string[] = [];
  const number = (name: string, min: number, max: number, integer: boolean): number | null => {
    const raw = env[name]?.trim();
    if (!raw) return null;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min || n > max || (integer && !Number.isInteger(n))) {
      problems.push(`${name}: expected ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(raw)}`);
      return null;
    }
    return n;
  };
  const keep = number('FORMLOOM_BACKUP_KEEP', 1, 1000, true) ?? 7;
  // A quarter of an hour at the shortest: each archive is a full copy of the database and the files.
  const intervalHours = number('FORMLOOM_BACKUP_INTERVAL_HOURS', 0.25, 24 * 366, false);
  const withKey = env.FORMLOOM_BACKUP_WITH_SECRET_KEY?.trim();
  if (withKey && withKey !== '0' && withKey !== '1') problems.push(`FORMLOOM_BACKUP_WITH_SECRET_KEY: expected 1 or 0, got ${JSON.stringify(withKey)}`);
  const dirRaw = env.FORMLOOM_BACKUP_DIR?.trim();
  if (problems.length) throw new Error(problems.join('\n'));
  return {
    dir: dirRaw ? (isAbsolute(dirRaw) ? dirRaw : resolve(cwd, dirRaw)) : join(dataDir, 'backups'),
    keep,
    intervalHours,
    includeSecretKey: withKey === '1',
  };
}
