import { resolve } from 'node:path';
import { z } from 'zod';
import { resolveDatabaseUrl } from '@formloom/storage-typeorm';

export type Env = Record<string, string | undefined>;

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface SelfHostedConfig {
  /** `sqlite:<absolute path>` or `postgres://...` (`FORMLOOM_DATABASE_URL`, default the data dir's `formloom.sqlite`). */
  databaseUrl: string;
  /** Absolute path of the data directory (`FORMLOOM_DATA_DIR`, default `./data`). */
  dataDir: string;
  /** 0 asks the system for a free port. */
  port: number;
  /** Interface to bind (`HOST`, default `127.0.0.1`; `0.0.0.0` in a container). */
  host: string;
  /** Base of shareable links; `null` means the URL listened on. */
  publicUrl: string | null;
  /** `FORMLOOM_UPLOAD_QUOTA_MB` (default 1024): total size of one form's uploads. */
  uploadQuotaBytes: number;
  /** `FORMLOOM_OUTBOX_RETENTION_DAYS` (default 7): how long sent mails and settled deliveries stay in the outbox. */
  outboxRetentionMs: number;
  /** `FORMLOOM_LOG_LEVEL` (default `info`): pino level of the JSON lines on stdout. */
  logLevel: LogLevel;
}

/** Unset and blank values are the same: the default. */
const optional = (inner: z.ZodType) => z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined), inner);

const positive = (fallback: number) =>
  optional(
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return fallback;
        const n = Number(v);
        if (n > 0 && Number.isFinite(n)) return n;
        ctx.addIssue({ code: 'custom', message: `expected a positive number, got ${JSON.stringify(v)}` });
        return z.NEVER;
      }),
  );

/** Every operator variable of the app (docs/configuration.md), each with its check and its default. */
const schema = z.object({
  PORT: optional(
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        const n = /^\d+$/.test(v ?? '3000') ? Number(v ?? '3000') : NaN;
        if (n >= 0 && n <= 65535) return n;
        ctx.addIssue({ code: 'custom', message: `expected a port number, got ${JSON.stringify(v)}` });
        return z.NEVER;
      }),
  ),
  HOST: optional(
    z
      .string()
      .regex(/^[A-Za-z0-9.:[\]%_-]+$/, 'expected an address or host name such as 127.0.0.1, 0.0.0.0 or ::')
      .default('127.0.0.1'),
  ),
  FORMLOOM_DATA_DIR: optional(z.string().default('./data')),
  FORMLOOM_DATABASE_URL: optional(z.string().optional()),
  FORMLOOM_PUBLIC_URL: optional(
    z
      .string()
      .regex(/^https?:\/\/[^\s/]+/, 'expected an http(s) URL such as https://forms.example.com')
      .transform((v) => v.replace(/\/+$/, ''))
      .optional(),
  ),
  FORMLOOM_UPLOAD_QUOTA_MB: positive(1024),
  FORMLOOM_OUTBOX_RETENTION_DAYS: positive(7),
  FORMLOOM_LOG_LEVEL: optional(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(LOG_LEVELS, { error: (i) => `expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(i.input)}` }))
      .default('info'),
  ),
});

/**
 * The operator variables (docs/configuration.md), parsed and checked in one place; a bad value stops the
 * start with one message per variable, naming it. Relative paths resolve against `cwd` as the `formloom`
 * command resolves them, so the app and the command find the same database.
 */
export function readSelfHostedConfig(env: Env, cwd = process.cwd()): SelfHostedConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n'));
  }
  const v = parsed.data as {
    PORT: number;
    HOST: string;
    FORMLOOM_DATA_DIR: string;
    FORMLOOM_DATABASE_URL?: string;
    FORMLOOM_PUBLIC_URL?: string;
    FORMLOOM_UPLOAD_QUOTA_MB: number;
    FORMLOOM_OUTBOX_RETENTION_DAYS: number;
    FORMLOOM_LOG_LEVEL: LogLevel;
  };
  const dataDir = resolve(cwd, v.FORMLOOM_DATA_DIR);
  return {
    // Unset, the SQLite file follows the data dir (docs/configuration.md).
    databaseUrl: resolveDatabaseUrl(v.FORMLOOM_DATABASE_URL ?? `sqlite:${resolve(dataDir, 'formloom.sqlite')}`, cwd),
    dataDir,
    port: v.PORT,
    host: v.HOST,
    publicUrl: v.FORMLOOM_PUBLIC_URL ?? null,
    uploadQuotaBytes: Math.round(v.FORMLOOM_UPLOAD_QUOTA_MB * 1024 * 1024),
    outboxRetentionMs: Math.round(v.FORMLOOM_OUTBOX_RETENTION_DAYS * 24 * 3600_000),
    logLevel: v.FORMLOOM_LOG_LEVEL,
  };
}

/** The URL a browser on this machine reaches `host:port` at (an any-address bind is reached on localhost). */
export function listenUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${shown.includes(':') && !shown.startsWith('[') ? `[${shown}]` : shown}:${port}`;
}
