import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createBackup, type BackupOptions, type BackupResult } from './backup';

/** Scheduled archives are named by their time, so the newest sort last: `formloom-backup-<ISO time>.tar.gz`. */
const SCHEDULED = /^formloom-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z\.tar\.gz$/;

export function scheduledBackupName(at: Date): string {
  return `formloom-backup-${at.toISOString().replace(/[:.]/g, '-')}.tar.gz`;
}

export interface StoredBackup {
  name: string;
  bytes: number;
  created_at: string;
}

/** The archives of a backup folder made by the schedule or the admin area, newest first. */
export async function listBackups(dir: string): Promise<StoredBackup[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  const out: StoredBackup[] = [];
  for (const name of names.filter((n) => SCHEDULED.test(n)).sort().reverse()) {
    const s = await stat(join(dir, name)).catch(() => null);
    if (s?.isFile()) out.push({ name, bytes: s.size, created_at: s.mtime.toISOString() });
  }
  return out;
}

/** Whether `name` is one of a backup folder's archives (a download or a deletion names nothing else). */
export function isBackupName(name: string): boolean {
  return SCHEDULED.test(name);
}

/** Deletes all but the `keep` newest archives of the folder; the operator's other files are never touched. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const removed: string[] = [];
  for (const old of (await listBackups(dir)).slice(Math.max(1, keep))) {
    await rm(join(dir, old.name), { force: true });
    removed.push(old.name);
  }
  return removed;
}

export interface BackupScheduleOptions {
  intervalMs: number;
  /** Takes one backup into the folder (the caller knows the database, the data folder and the key). */
  run: () => Promise<unknown>;
  onError: (e: unknown) => void;
}

/**
 * Runs `run` every `intervalMs`, one at a time (a slow backup delays the next rather than overlapping it); the
 * timer never keeps the process alive. `stop()` waits for a backup in progress.
 */
export function startBackupSchedule(options: BackupScheduleOptions): { stop(): Promise<void> } {
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const arm = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = options
        .run()
        .then(() => undefined, options.onError)
        .finally(() => {
          running = null;
          arm();
        });
    }, options.intervalMs);
    timer.unref();
  };
  arm();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** One archive into a backup folder under its time's name, then the folder pruned to `keep` archives. */
export async function backupIntoFolder(
  options: Omit<BackupOptions, 'file'> & { dir: string; keep: number },
): Promise<BackupResult & { name: string; pruned: string[] }> {
  const at = options.now?.() ?? new Date();
  const name = scheduledBackupName(at);
  const { dir, keep, ...rest } = options;
  const result = await createBackup({ ...rest, now: () => at, file: join(dir, name) });
  return { ...result, name, pruned: await pruneBackups(dir, keep) };
}
