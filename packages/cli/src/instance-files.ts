import { join } from 'node:path';
import type { BlobStore } from '@formloom/core';
import { createFileBlobStore } from '@formloom/blob-store-file';
import type { ClosableStorage } from '@formloom/storage-typeorm';
import type { CliConfig, Env } from './config';

/**
 * The instance's blob store as the server opens it (`FORMLOOM_BLOB_STORE`, docs/configuration.md): files in the
 * data folder's `blobs/`, or the PostgreSQL database itself (the default with a PostgreSQL database). An S3
 * bucket is the server's alone: its settings and SDK are not the CLI's, so a command that reads files refuses.
 */
export function instanceBlobStore(env: Env, config: CliConfig, storage: ClosableStorage): BlobStore {
  const chosen = env.FORMLOOM_BLOB_STORE?.trim().toLowerCase() || (/^postgres(ql)?:\/\//.test(config.databaseUrl) ? 'postgres' : 'file');
  if (chosen === 'file') return createFileBlobStore(join(config.dataDir, 'blobs'));
  if (chosen === 'postgres') return storage.postgresBlobStore();
  throw new Error(
    `FORMLOOM_BLOB_STORE=${chosen}: this command reads the files from the data folder or PostgreSQL only; ` +
      'download the archive from the account page instead (GET /api/v1/account/export)',
  );
}
