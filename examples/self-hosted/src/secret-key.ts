import { randomBytes } from 'node:crypto';
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
