export { createBackup, POSTGRES_BACKUP_GUIDANCE, type BackupOptions, type BackupResult } from './backup';
export { restoreBackup, POSTGRES_RESTORE_GUIDANCE, type RestoreOptions, type RestoreResult } from './restore';
export { ARCHIVE_PATHS, BACKUP_FORMAT, BackupError, keyFingerprint, parseManifest, type BackupManifest, type ManifestFile } from './manifest';
export {
  backupIntoFolder,
  isBackupName,
  listBackups,
  pruneBackups,
  scheduledBackupName,
  startBackupSchedule,
  type BackupScheduleOptions,
  type StoredBackup,
} from './schedule';
export { backupsPlugin, InstanceBackups, type InstanceBackupsOptions } from './admin-plugin';
