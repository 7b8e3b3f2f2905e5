import { resolve } from 'node:path';
import { DEFAULT_DATABASE_URL, resolveDatabaseUrl, sqliteFile } from '@formloom/storage-typeorm';

export { DEFAULT_DATABASE_URL, sqliteFile };

export type Env = Record<string, string | undefined>;

export const DEFAULT_DATA_DIR = './data';

/** The variables of the operator contract (docs/configuration.md) that the CLI reads. */
export interface CliConfig {
  /** `sqlite:<absolute path>` or `postgres://...`. */
  databaseUrl: string;
  /** Absolute path of the data directory. */
  dataDir: string;
}

/**
 * Reads the configuration from `env`. Relative SQLite paths and the data directory are resolved
 * against `cwd` here, so the result does not depend on where the database driver resolves them.
 */
export function readConfig(env: Env, cwd = process.cwd()): CliConfig {
  return {
    databaseUrl: resolveDatabaseUrl(env.FORMLOOM_DATABASE_URL, cwd),
    dataDir: resolve(cwd, nonEmpty(env.FORMLOOM_DATA_DIR) ?? DEFAULT_DATA_DIR),
  };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}
