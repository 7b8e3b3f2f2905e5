import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { conflict, definePlugin, InstanceAdminService, notFound, type FormloomPlugin, type Principal } from '@formloom/core';
import { sqliteFile } from '@formloom/storage-typeorm';
import { POSTGRES_BACKUP_GUIDANCE } from './backup';
import { backupIntoFolder, isBackupName, listBackups, startBackupSchedule } from './schedule';

export interface InstanceBackupsOptions {
  databaseUrl: string;
  dataDir: string;
  /** The folder of the archives (`FORMLOOM_BACKUP_DIR`, default `<data dir>/backups`). */
  dir: string;
  /** Archives kept (`FORMLOOM_BACKUP_KEEP`, default 7); older ones are deleted after each new one. */
  keep: number;
  /** Hours between scheduled archives (`FORMLOOM_BACKUP_INTERVAL_HOURS`); null: none scheduled. */
  intervalHours: number | null;
  secretKey: string | null;
  includeSecretKey: boolean;
  formloomVersion: string;
  /** The clock that names the archives (tests drive it); default the system's. */
  now?: () => Date;
}

/**
 * An instance's backups, one at a time whoever asks (the schedule or the admin area): taking one while another
 * runs is refused rather than queued, so two clicks never make two archives of the same moment.
 */
export class InstanceBackups {
  private running: Promise<unknown> | null = null;
  readonly sqlite: boolean;

  constructor(readonly options: InstanceBackupsOptions) {
    this.sqlite = sqliteFile(options.databaseUrl) !== null;
  }

  async take() {
    if (!this.sqlite) throw conflict(POSTGRES_BACKUP_GUIDANCE, { reason: 'backups_need_sqlite' });
    if (this.running) throw conflict('A backup is being taken; wait for it to finish', { reason: 'backup_in_progress' });
    const { dir, keep, databaseUrl, dataDir, secretKey, includeSecretKey, formloomVersion, now } = this.options;
    const work = backupIntoFolder({ dir, keep, databaseUrl, dataDir, secretKey, includeSecretKey, formloomVersion, ...(now ? { now } : {}) });
    this.running = work;
    try {
      return await work;
    } finally {
      this.running = null;
    }
  }

  list() {
    return listBackups(this.options.dir);
  }

  /** Scheduled archives, when an interval is set; `stop()` waits for one in progress. */
  schedule(onError: (e: unknown) => void): { stop(): Promise<void> } {
    const hours = this.options.intervalHours;
    if (!hours || !this.sqlite) return { stop: async () => undefined };
    return startBackupSchedule({ intervalMs: hours * 3_600_000, run: () => this.take(), onError });
  }
}

const backupOut = z.object({
  name: z.string().describe('The archive\'s file name in the backup folder'),
  bytes: z.number().int(),
  created_at: z.string().describe('ISO 8601'),
});
const listOut = z.object({
  backups: z.array(backupOut).describe('Newest first'),
  database: z.enum(['sqlite', 'postgres']),
  schedule: z.object({
    every_hours: z.number().nullable().describe('Hours between scheduled archives; null: none are scheduled (FORMLOOM_BACKUP_INTERVAL_HOURS)'),
    keep: z.number().int().describe('How many archives the folder keeps (FORMLOOM_BACKUP_KEEP)'),
  }),
  guidance: z.string().nullable().describe('On PostgreSQL: how to back up instead (pg_dump)'),
});
const takenOut = z.object({ backup: backupOut, rows: z.number().int(), files: z.number().int(), pruned: z.array(z.string()) });

const ADMIN = "Only the instance's administrator (docs/accounts.md); 403 for anyone else.";

/** The admin area's backups (docs/backup-and-restore.md): list, take one now, download. Restores are the CLI's. */
export function backupsPlugin(backups: InstanceBackups): FormloomPlugin {
  return definePlugin({
    name: 'backups',
    version: '1.0.0',
    routes: (ctx) => {
      const requireAdmin = (p: Principal) => ctx.service(InstanceAdminService).requireAdmin(p);
      return [
        {
          method: 'get',
          path: '/admin/backups',
          scope: 'forms',
          operationId: 'adminListBackups',
          summary: `The instance's backup archives and their schedule. ${ADMIN}`,
          tags: ['Admin'],
          success: { status: 200, description: '{backups[], database, schedule, guidance}', schema: listOut },
          errors: [401, 403],
          handler: async (req) => {
            await requireAdmin(req.principal!);
            return {
              body: {
                backups: backups.sqlite ? await backups.list() : [],
                database: backups.sqlite ? 'sqlite' : 'postgres',
                schedule: { every_hours: backups.options.intervalHours, keep: backups.options.keep },
                guidance: backups.sqlite ? null : POSTGRES_BACKUP_GUIDANCE,
              },
            };
          },
        },
        {
          method: 'post',
          path: '/admin/backups',
          scope: 'forms',
          operationId: 'adminTakeBackup',
          summary: `Take a backup now, while the server runs (what \`formloom backup\` does), into the backup folder. ${ADMIN}`,
          tags: ['Admin'],
          success: { status: 201, description: 'The archive, and older ones deleted past the number kept', schema: takenOut },
          errors: [401, 403, 409],
          handler: async (req) => {
            await requireAdmin(req.principal!);
            const made = await backups.take();
            ctx.logger.info(`backup ${made.name} taken by the admin (${made.bytes} bytes)`);
            const rows = Object.values(made.manifest.counts).reduce((a, b) => a + b, 0);
            return {
              status: 201,
              body: { backup: { name: made.name, bytes: made.bytes, created_at: made.manifest.created_at }, rows, files: made.manifest.files.length, pruned: made.pruned },
            };
          },
        },
        {
          method: 'get',
          path: '/admin/backups/:name',
          scope: 'forms',
          operationId: 'adminDownloadBackup',
          summary: `Download one archive (restore it with \`formloom restore\`). ${ADMIN}`,
          tags: ['Admin'],
          success: { status: 200, description: 'The archive (.tar.gz)', media: ['application/gzip'] },
          errors: [401, 403, 404],
          handler: async (req) => {
            await requireAdmin(req.principal!);
            const name = req.params.name ?? '';
            // Only names the folder's listing gives: nothing else of the disk can be reached through here.
            if (!isBackupName(name) || !(await backups.list()).some((b) => b.name === name)) throw notFound('Backup');
            return { contentType: 'application/gzip', attachment: name, stream: createReadStream(join(backups.options.dir, name)) };
          },
        },
      ];
    },
  });
}
