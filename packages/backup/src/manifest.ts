import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The archive layout's version: a restore refuses a layout it does not know (docs/backup-and-restore.md). */
export const BACKUP_FORMAT = 1;

/** Where each part of an instance sits inside an archive. */
export const ARCHIVE_PATHS = {
  manifest: 'manifest.json',
  database: 'database/formloom.sqlite',
  blobs: 'blobs',
  signingP12: 'signing.p12',
  secretKey: 'secret.key',
} as const;

/**
 * The instance CA's revocation list beside `signing.p12` (named after the CA, docs/signing.md): served at
 * `/signing/ca.crl` and put into PDFs sealed at the long-term levels, so it travels with the certificate.
 */
export const SIGNING_CRL = /^signing-ca-[0-9a-f]{16}\.crl$/;

/** One file of the archive: its path inside it, its size and its SHA-256. */
export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

/**
 * What an archive holds, written first so a restore checks everything before it changes anything:
 * the Formloom version and migrations that made it, the rows per table, and every file's checksum.
 */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formloom_version: string;
  created_at: string;
  database: 'sqlite';
  /** The migrations recorded in the snapshot, oldest first (their class names). */
  migrations: string[];
  /** Rows per table in the snapshot. */
  counts: Record<string, number>;
  /** Identifies the secret key the stored secrets need, without revealing it (`keyFingerprint`). */
  secret_key_fingerprint: string | null;
  /** Whether `secret.key` itself is in the archive (`--with-secret-key`). */
  includes_secret_key: boolean;
  files: ManifestFile[];
}

/**
 * A short, one-way name for a secret key: equal keys give equal names. The key is 256 random bits, so its hash
 * reveals nothing usable; the label keeps the value from matching any other hash of the key.
 */
export function keyFingerprint(key: string): string {
  return createHash('sha256').update(`formloom backup secret key\n${key.trim()}`).digest('hex').slice(0, 32);
}

export async function sha256File(path: string): Promise<{ sha256: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/** Checks a parsed manifest's shape; the message names what is wrong, for the operator. */
export function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError('the archive\'s manifest.json is not JSON: is this a formloom backup?');
  }
  const m = value as Partial<BackupManifest>;
  if (!m || typeof m !== 'object') throw new BackupError('the archive\'s manifest.json is not an object');
  if (m.format !== BACKUP_FORMAT) throw new BackupError(`the archive's format ${JSON.stringify(m.format)} is not one this Formloom reads (${BACKUP_FORMAT}): restore it with the version that made it`);
  if (m.database !== 'sqlite') throw new BackupError(`the archive holds a ${String(m.database)} database; this restore takes SQLite archives`);
  if (!Array.isArray(m.migrations) || !m.migrations.every((x) => typeof x === 'string')) throw new BackupError('the manifest lists no migrations');
  if (!Array.isArray(m.files) || !m.files.every((f) => f && typeof f.path === 'string' && typeof f.sha256 === 'string' && Number.isSafeInteger(f.size))) {
    throw new BackupError('the manifest\'s file list is damaged');
  }
  if (!m.counts || typeof m.counts !== 'object') throw new BackupError('the manifest has no row counts');
  return m as BackupManifest;
}

/** A backup or restore that cannot go on; its message says why and what to do (exit code 1 in the CLI). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}
