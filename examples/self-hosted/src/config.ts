import { resolve } from 'node:path';
import { resolveDatabaseUrl } from '@formloom/storage-typeorm';

export type Env = Record<string, string | undefined>;

export interface SelfHostedConfig {
  /** `sqlite:<absolute path>` or `postgres://...` (`FORMLOOM_DATABASE_URL`). */
  databaseUrl: string;
  /** Absolute path of the data directory (`FORMLOOM_DATA_DIR`, default `./data`). */
  dataDir: string;
  /** 0 asks the system for a free port. */
  port: number;
  /** `HOST`: the interface to listen on; `127.0.0.1` by default, `0.0.0.0` in a container (docs/docker.md). */
  host: string;
  /** Base of shareable links; `null` means `http://localhost:<the port listened on>`. */
  publicUrl: string | null;
  /** `FORMLOOM_UPLOAD_QUOTA_MB` (default 1024): total size of one form's uploads. */
  uploadQuotaBytes: number;
  /** `FORMLOOM_OUTBOX_RETENTION_DAYS` (default 7): how long sent mails and settled deliveries stay in the outbox. */
  outboxRetentionMs: number;
}

/** A positive number from `env[name]`, or `fallback` when unset. */
function positive(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!(n > 0) || !Number.isFinite(n)) throw new Error(`${name}: expected a positive number, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * The operator variables (docs/configuration.md), read as the `formloom` command reads them: relative paths
 * resolve against `cwd`, so the app and the command find the same database.
 */
export function readSelfHostedConfig(env: Env, cwd = process.cwd()): SelfHostedConfig {
  const rawPort = env.PORT?.trim() || '3000';
  const port = /^\d+$/.test(rawPort) ? Number(rawPort) : NaN;
  if (!(port >= 0 && port <= 65535)) throw new Error(`PORT: expected a port number, got ${JSON.stringify(env.PORT)}`);
  const publicUrl = env.FORMLOOM_PUBLIC_URL?.trim().replace(/\/+$/, '') || null;
  return {
    databaseUrl: resolveDatabaseUrl(env.FORMLOOM_DATABASE_URL, cwd),
    dataDir: resolve(cwd, env.FORMLOOM_DATA_DIR?.trim() || './data'),
    port,
    host: env.HOST?.trim() || '127.0.0.1',
    publicUrl,
    uploadQuotaBytes: Math.round(positive(env, 'FORMLOOM_UPLOAD_QUOTA_MB', 1024) * 1024 * 1024),
    outboxRetentionMs: Math.round(positive(env, 'FORMLOOM_OUTBOX_RETENTION_DAYS', 7) * 24 * 3600_000),
  };
}
