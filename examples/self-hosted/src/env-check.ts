import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type Env, readSelfHostedConfig } from './config';
import { readHttpConfig } from './http-config';
import { configPath } from './plugin-config';
import { sealProblems } from './signing-seal';
import { readBackupConfig } from './backup-config';
import { twilioProblems } from './telephony-config';

/** The configuration cannot start the app: one line per bad variable, each naming it (docs/configuration.md). */
export class ConfigurationError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigurationError';
  }
}

/** A value that turns a switch on or off: `1` or `0` (the app reads nothing else as on). */
const SWITCH = /^[01]$/;

/**
 * Every operator variable checked at once, before anything is opened, so that an operator sees every bad
 * value in one run rather than one per restart. Each reader of the app keeps its own checks; this runs them
 * all and adds the variables only a later step would have read (mail, webhooks, files named by variables).
 * Values are not repeated where they may hold a secret (`FORMLOOM_SMTP_URL`).
 */
export function configurationProblems(env: Env, cwd = process.cwd()): string[] {
  const problems: string[] = [];
  const run = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      problems.push(...(e as Error).message.split('\n').filter((l) => l.trim() !== ''));
    }
  };
  run(() => readSelfHostedConfig(env, cwd));
  run(() => readBackupConfig(env, '.', cwd));
  if (env.FORMLOOM_BACKUP_INTERVAL_HOURS?.trim() && /^postgres(ql)?:/.test(env.FORMLOOM_DATABASE_URL?.trim() ?? '')) {
    problems.push('FORMLOOM_BACKUP_INTERVAL_HOURS: scheduled backups are for SQLite; on PostgreSQL, schedule pg_dump (docs/backup-and-restore.md)');
  }
  run(() => readHttpConfig(env));
  problems.push(...sealProblems(env));
  problems.push(...twilioProblems(env));
  const smtp = smtpProblem(env.FORMLOOM_SMTP_URL?.trim());
  if (smtp) problems.push(smtp);
  const from = env.FORMLOOM_MAIL_FROM?.trim();
  if (from && !/[^\s@<>]+@[^\s@<>]+/.test(from)) {
    problems.push(`FORMLOOM_MAIL_FROM: expected a sender address such as "Formloom <no-reply@example.com>", got ${JSON.stringify(from)}`);
  }
  const allowPrivate = env.FORMLOOM_WEBHOOK_ALLOW_PRIVATE?.trim();
  if (allowPrivate && !SWITCH.test(allowPrivate)) problems.push(`FORMLOOM_WEBHOOK_ALLOW_PRIVATE: expected 1 or 0, got ${JSON.stringify(allowPrivate)}`);
  run(() => configPath(env, cwd));
  const p12 = env.FORMLOOM_SIGNING_P12?.trim();
  if (p12 && !existsSync(isAbsolute(p12) ? p12 : resolve(cwd, p12))) problems.push(`FORMLOOM_SIGNING_P12: no such file: ${p12}`);
  return problems;
}

/** Throws `ConfigurationError` with every problem of `configurationProblems`, if there is any. */
export function checkConfiguration(env: Env, cwd = process.cwd()): void {
  const problems = configurationProblems(env, cwd);
  if (problems.length > 0) throw new ConfigurationError(problems);
}

/** The SMTP URL's problem, without repeating it (it may carry the server's password); `null` when fine or unset. */
function smtpProblem(url: string | undefined): string | null {
  if (!url) return null;
  const expected = 'expected smtp://[user:password@]host[:port] or smtps://...';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `FORMLOOM_SMTP_URL: not a URL (${expected})`;
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') return `FORMLOOM_SMTP_URL: starts with ${parsed.protocol}// (${expected})`;
  if (!parsed.hostname) return `FORMLOOM_SMTP_URL: names no host (${expected})`;
  return null;
}
