import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { waitFor } from '@formloom/core/testing';
import { openMigratedStorage } from '@formloom/storage-typeorm';
import { InstanceBackups, listBackups, restoreBackup, scheduledBackupName } from '../src';

/*
 * Scheduled backups (docs/backup-and-restore.md, "Scheduled backups"): archives are taken on the interval, the
 * folder keeps only the newest `keep`, and a backup that fails is reported, leaves nothing behind, and the next
 * one is taken as usual. Time is driven: a short interval with condition waits, and a clock that names archives.
 */

test('the schedule takes archives, keeps the newest N, and after a failed one (reported, nothing left) takes the next', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'formloom-backup-schedule-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  const dataDir = join(root, 'data');
  const dir = join(root, 'backups');
  mkdirSync(join(dataDir, 'blobs', 'uploads'), { recursive: true });
  writeFileSync(join(dataDir, 'blobs', 'uploads', 'cv.pdf'), 'a file of the instance');
  const databaseUrl = `sqlite:${join(dataDir, 'formloom.sqlite')}`;
  // The server's connection stays open meanwhile, as a running instance's would.
  const storage = await openMigratedStorage(databaseUrl);
  t.teardown(() => storage.close());

  // Archive n is named for minute n of a day; the third one's name is taken by a folder, so its last step fails.
  const minute = (n: number) => new Date(Date.UTC(2026, 0, 1, 3, n));
  let taken = 0;
  const now = () => minute(++taken);
  mkdirSync(join(dir, scheduledBackupName(minute(3))), { recursive: true });
  writeFileSync(join(dir, scheduledBackupName(minute(3)), 'in the way'), '');
  writeFileSync(join(dir, 'notes.txt'), 'the operator\'s own file');

  const errors: unknown[] = [];
  const backups = new InstanceBackups({ databaseUrl, dataDir, dir, keep: 2, intervalHours: 0.0001, secretKey: 'k'.repeat(64), includeSecretKey: false, formloomVersion: '0.1.0', now });
  const schedule = backups.schedule((e) => errors.push(e));
  t.teardown(() => schedule.stop());
  const names = async () => (await listBackups(dir)).map((b) => b.name);
  await waitFor(async () => (await names()).includes(scheduledBackupName(minute(5))), { timeoutMs: 120_000, intervalMs: 50 });
  await schedule.stop();

  t.is(errors.length, 1, 'the one failure was reported, once');
  t.regex(String((errors[0] as Error).message), /EISDIR|directory/);
  t.true(taken >= 5);
  const kept = await names();
  t.is(kept.length, 2, 'only the kept number of archives remain');
  t.deepEqual(kept.slice(0, 2).sort(), (taken === 5 ? [4, 5] : [taken - 1, taken]).map((n) => scheduledBackupName(minute(n))).sort());
  // Nothing half-made: no staging folder, no partial archive; the operator's file and the folder in the way stay.
  t.deepEqual(readdirSync(dir).filter((n) => !kept.includes(n)).sort(), ['notes.txt', scheduledBackupName(minute(3))].sort());
  t.deepEqual(readdirSync(join(dir, scheduledBackupName(minute(3)))), ['in the way']);

  // The newest archive is whole: it restores into an empty folder, every checksum checked.
  const target = join(root, 'restored');
  const restored = await restoreBackup({ file: join(dir, kept[0]!), databaseUrl: `sqlite:${join(target, 'formloom.sqlite')}`, dataDir: target, secretKeyFromEnv: 'k'.repeat(64) });
  t.is(restored.blobs, 1);
});
