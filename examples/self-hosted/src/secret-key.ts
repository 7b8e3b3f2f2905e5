import { randomBytes } from 'node:crypto';
import { SecretBox } from '@formloom/core';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key that encrypts stored secrets: FORMLOOM_SECRET_KEY when set (needed when several instances
 * share one database), else `<data dir>/secret.key`, created on first start with owner-only permissions.
 */
export function loadSecretKey(env: NodeJS.ProcessEnv | Record<string, string | undefined>, dataDir: string): string {
  const fromEnv = env.FORMLOOM_SECRET_KEY?.trim();
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'secret.key');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const key = randomBytes(32).toString('hex');
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
    return key;
  } catch (e) {
    // Another process created it first: use theirs.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw e;
  }
}

const CANARY_SETTING = 'secret_key_canary';
const CANARY_TEXT = 'formloom secret key canary v1';

/** The key in use cannot decrypt what this database holds; the message says what to do. */
export class SecretKeyMismatchError extends Error {
  constructor(fromEnv: boolean, dataDir: string) {
    super(
      `FORMLOOM_SECRET_KEY does not match this database: its stored secrets were encrypted with another key ` +
        `(${fromEnv ? 'FORMLOOM_SECRET_KEY is set to a different value' : `the key in ${join(dataDir, 'secret.key')} is not the one it was first started with`}). ` +
        `Set FORMLOOM_SECRET_KEY to the key this database was first started with; every instance of one deployment needs the same key (docs/operations.md).`,
    );
    this.name = 'SecretKeyMismatchError';
  }
}

/**
 * Checks `key` against the canary the database's first start stored (sealed with its key), so a changed or
 * mismatched key stops the start instead of failing later as a 500 on the first stored secret.
 */
export async function checkSecretKey(
  storage: { instanceSetting(name: string, initial: string): Promise<string> },
  key: string,
  where: { fromEnv: boolean; dataDir: string },
): Promise<void> {
  const box = new SecretBox(key);
  const stored = await storage.instanceSetting(CANARY_SETTING, box.seal(CANARY_TEXT));
  let opened: string | null = null;
  try {
    opened = box.open(stored);
  } catch {
    opened = null;
  }
  if (opened !== CANARY_TEXT) throw new SecretKeyMismatchError(where.fromEnv, where.dataDir);
}
