import { resolve } from 'node:path';

export type Env = Record<string, string | undefined>;

export const DEFAULT_DATABASE_URL = 'sqlite:./data/formloom.sqlite';
export const DEFAULT_DATA_DIR = './data';

/** The variables of the operator contract (DESIGN.md section 4) that the CLI reads. */
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
  const url = nonEmpty(env.FORMLOOM_DATABASE_URL) ?? DEFAULT_DATABASE_URL;
  return {
    databaseUrl: absoluteSqliteUrl(url, cwd),
    dataDir: resolve(cwd, nonEmpty(env.FORMLOOM_DATA_DIR) ?? DEFAULT_DATA_DIR),
  };
}

/** The file of a `sqlite:` URL, or `null` for other databases and in-memory SQLite. */
export function sqliteFile(url: string): string | null {
  if (!url.startsWith('sqlite:')) return null;
  let path = url.slice('sqlite:'.length);
  // `sqlite://data/x.sqlite` is a common spelling of `sqlite:data/x.sqlite`.
  if (path.startsWith('//')) path = path.slice(2);
  return path === '' || path === ':memory:' ? null : path;
}

function absoluteSqliteUrl(url: string, cwd: string): string {
  const file = sqliteFile(url);
  if (file !== null) return `sqlite:${resolve(cwd, file)}`;
  if (url.startsWith('sqlite:') || /^postgres(ql)?:\/\//.test(url)) return url;
  throw new Error(`FORMLOOM_DATABASE_URL: expected sqlite:<path> or postgres://..., got ${JSON.stringify(url)}`);
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v;
}
