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
  /** `FORMLOOM_FILE_LINK_DAYS` (default 7): how long the signed links to uploaded files in webhooks and mails open them. */
  fileLinkTtlMs: number;
  /** `FORMLOOM_BOOKING_HOLD_MINUTES` (default 10): how long a booking slot stays held while the respondent finishes. */
  bookingHoldMinutes: number;
  /** `FORMLOOM_LOG_LEVEL` (default `info`): pino level of the JSON lines on stdout. */
  logLevel: LogLevel;
  /** `FORMLOOM_BLOB_STORE` and `FORMLOOM_S3_*`: where uploads, audio and signed PDFs go (docs/scaling.md). */
  blobStore: BlobStoreConfig;
}

export const BLOB_STORES = ['file', 'postgres', 's3'] as const;

/**
 * `file`: `<data dir>/blobs` (the default on SQLite); `postgres`: the database itself (the default on
 * PostgreSQL); `s3`: an S3-compatible bucket.
 */
export type BlobStoreConfig =
  | { kind: 'file' }
  | { kind: 'postgres' }
  | {
      kind: 's3';
      bucket: string;
      endpoint?: string;
      region: string;
      credentials?: { accessKeyId: string; secretAccessKey: string };
      forcePathStyle: boolean;
    };

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
  FORMLOOM_BLOB_STORE: optional(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(BLOB_STORES, { error: (i) => `expected one of ${BLOB_STORES.join(', ')}, got ${JSON.stringify(i.input)}` }))
      .optional(),
  ),
  FORMLOOM_S3_BUCKET: optional(z.string().optional()),
  FORMLOOM_S3_ENDPOINT: optional(
    z
      .string()
      .regex(/^https?:\/\/[^\s/]+/, 'expected an http(s) URL such as https://s3.example.com')
      .optional(),
  ),
  FORMLOOM_S3_REGION: optional(z.string().default('us-east-1')),
  FORMLOOM_S3_ACCESS_KEY_ID: optional(z.string().optional()),
  FORMLOOM_S3_SECRET_ACCESS_KEY: optional(z.string().optional()),
  FORMLOOM_S3_FORCE_PATH_STYLE: optional(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(['1', 'true', 'yes', '0', 'false', 'no'], { error: (i) => `expected 1 or 0 (true or false), got ${JSON.stringify(i.input)}` }))
      .transform((v) => ['1', 'true', 'yes'].includes(v))
      .default(false),
  ),
  FORMLOOM_OUTBOX_RETENTION_DAYS: positive(7),
  FORMLOOM_FILE_LINK_DAYS: positive(7),
  FORMLOOM_BOOKING_HOLD_MINUTES: positive(10),
  FORMLOOM_LOG_LEVEL: optional(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .pipe(z.enum(LOG_LEVELS, { error: (i) => `expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(i.input)}` }))
      .default('info'),
  ),
});

/** The variables as the schema leaves them. */
interface ParsedVariables {
  PORT: number;
  HOST: string;
  FORMLOOM_DATA_DIR: string;
  FORMLOOM_DATABASE_URL?: string;
  FORMLOOM_PUBLIC_URL?: string;
  FORMLOOM_UPLOAD_QUOTA_MB: number;
  FORMLOOM_OUTBOX_RETENTION_DAYS: number;
  FORMLOOM_FILE_LINK_DAYS: number;
  FORMLOOM_BOOKING_HOLD_MINUTES: number;
  FORMLOOM_LOG_LEVEL: LogLevel;
  FORMLOOM_BLOB_STORE?: (typeof BLOB_STORES)[number];
  FORMLOOM_S3_BUCKET?: string;
  FORMLOOM_S3_ENDPOINT?: string;
  FORMLOOM_S3_REGION: string;
  FORMLOOM_S3_ACCESS_KEY_ID?: string;
  FORMLOOM_S3_SECRET_ACCESS_KEY?: string;
  FORMLOOM_S3_FORCE_PATH_STYLE: boolean;
}

/**
 * The operator variables (docs/configuration.md), parsed and checked in one place; a bad value stops the
 * start with one message per variable, naming it. Relative paths resolve against `cwd` as the `formloom`
 * command resolves them, so the app and the command find the same database.
 */
export function readSelfHostedConfig(env: Env, cwd = process.cwd()): SelfHostedConfig {
  const parsed = schema.safeParse(env);
  const problems = [...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)), ...blobStoreProblems(env)];
  if (!parsed.success || problems.length > 0) throw new Error(problems.join('\n'));
  const v = parsed.data as ParsedVariables;
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
    fileLinkTtlMs: Math.round(v.FORMLOOM_FILE_LINK_DAYS * 24 * 3600_000),
    bookingHoldMinutes: v.FORMLOOM_BOOKING_HOLD_MINUTES,
    logLevel: v.FORMLOOM_LOG_LEVEL,
    blobStore: blobStoreConfig(v),
  };
}

/** What the blob store variables get wrong together (each variable alone is checked by the schema). */
function blobStoreProblems(env: Env): string[] {
  const value = (name: string) => env[name]?.trim() || undefined;
  const kind = value('FORMLOOM_BLOB_STORE')?.toLowerCase();
  const problems: string[] = [];
  if (kind === 'postgres' && !/^postgres(ql)?:\/\//.test(value('FORMLOOM_DATABASE_URL') ?? '')) {
    problems.push('FORMLOOM_BLOB_STORE: postgres needs a PostgreSQL FORMLOOM_DATABASE_URL (postgres://...)');
  }
  if (kind !== 's3') return problems;
  if (!value('FORMLOOM_S3_BUCKET')) problems.push('FORMLOOM_S3_BUCKET: needed when FORMLOOM_BLOB_STORE is s3');
  const [id, secret] = [value('FORMLOOM_S3_ACCESS_KEY_ID'), value('FORMLOOM_S3_SECRET_ACCESS_KEY')];
  if (!id !== !secret) {
    problems.push(`${id ? 'FORMLOOM_S3_SECRET_ACCESS_KEY' : 'FORMLOOM_S3_ACCESS_KEY_ID'}: set both FORMLOOM_S3_ACCESS_KEY_ID and FORMLOOM_S3_SECRET_ACCESS_KEY, or neither`);
  }
  return problems;
}

/** Unset, the blob store follows the database: the database itself on PostgreSQL, files on SQLite. */
function blobStoreConfig(v: ParsedVariables): BlobStoreConfig {
  const kind = v.FORMLOOM_BLOB_STORE ?? (/^postgres(ql)?:\/\//.test(v.FORMLOOM_DATABASE_URL ?? '') ? 'postgres' : 'file');
  if (kind === 'file' || kind === 'postgres') return { kind };
  return {
    kind,
    bucket: v.FORMLOOM_S3_BUCKET!,
    ...(v.FORMLOOM_S3_ENDPOINT ? { endpoint: v.FORMLOOM_S3_ENDPOINT.replace(/\/+$/, '') } : {}),
    region: v.FORMLOOM_S3_REGION,
    ...(v.FORMLOOM_S3_ACCESS_KEY_ID && v.FORMLOOM_S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: v.FORMLOOM_S3_ACCESS_KEY_ID, secretAccessKey: v.FORMLOOM_S3_SECRET_ACCESS_KEY } }
      : {}),
    forcePathStyle: v.FORMLOOM_S3_FORCE_PATH_STYLE,
  };
}

/** The URL a browser on this machine reaches `host:port` at (an any-address bind is reached on localhost). */
export function listenUrl(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${shown.includes(':') && !shown.startsWith('[') ? `[${shown}]` : shown}:${port}`;
}
