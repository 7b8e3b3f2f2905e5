import { join } from 'node:path';
import type { BlobStore } from '@formloom/core';
import { createFileBlobStore } from '@formloom/blob-store-file';
import type { ClosableStorage } from '@formloom/storage-typeorm';
import type { BlobStoreConfig } from './config';

export interface OpenedBlobStore {
  store: BlobStore;
  /** Where the blobs are, for the start-up log line (no credentials). */
  describe: string;
  close(): void;
}

/**
 * The blob store of `FORMLOOM_BLOB_STORE` (docs/configuration.md): files in the data dir, the PostgreSQL database
 * itself, or an S3 bucket, checked before the app serves, so a bucket that cannot be reached stops the start
 * with a message naming it rather than failing the first upload.
 */
export async function openBlobStore(config: BlobStoreConfig, storage: ClosableStorage, dataDir: string): Promise<OpenedBlobStore> {
  if (config.kind === 'file') {
    const root = join(dataDir, 'blobs');
    return { store: createFileBlobStore(root), describe: `files in ${root}`, close: () => undefined };
  }
  if (config.kind === 'postgres') {
    return { store: storage.postgresBlobStore(), describe: 'the PostgreSQL database', close: () => undefined };
  }
  const { kind: _kind, ...options } = config;
  // Loaded only when chosen: the AWS SDK is the largest thing the app could load, and most set-ups never use it.
  const { createS3BlobStore } = await import('@formloom/blob-store-s3');
  const store = createS3BlobStore(options);
  try {
    await store.verify();
  } catch (e) {
    store.close();
    throw e;
  }
  return { store, describe: `S3 bucket ${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''}`, close: () => store.close() };
}
