import express from 'express';
import type { SignupMode } from '@formloom/core';
import type { Env } from './config';
import { readSignupMode } from './sign-in-config';
import { DEFAULT_RATE_LIMITS, parseEmbedOrigins, type EmbedOrigins, type RateLimitName, type RateLimitOptions } from '@formloom/express';

/** How the app meets the network: proxies, framing and rate limits (docs/configuration.md). */
export interface HttpConfig {
  /** Express `trust proxy`: `false` uses the socket's address as the client's. */
  trustProxy: boolean | number | string;
  embedOrigins: EmbedOrigins;
  rateLimits: RateLimitOptions | false;
  /** The voice API's per-key limits (requests a minute; 0 turns one off), kept by the voice area itself. */
  voiceLimits: { generationsPerMinute?: number; estimatesPerMinute?: number };
  /** `FORMLOOM_SIGNUP`: who may make an account in the browser (docs/accounts.md). */
  signup: SignupMode;
}

/** The voice limits' variables (docs/configuration.md); `FORMLOOM_RATE_LIMITS=off` turns them off too. */
export const VOICE_LIMIT_VARIABLES = {
  generationsPerMinute: 'FORMLOOM_RATE_LIMIT_VOICE',
  estimatesPerMinute: 'FORMLOOM_RATE_LIMIT_VOICE_ESTIMATES',
} as const;

/** Each limit's variable; its value is requests a minute, `0` or `off` turns that limit off. */
export const RATE_LIMIT_VARIABLES: Record<RateLimitName, string> = {
  perKey: 'FORMLOOM_RATE_LIMIT_PER_KEY',
  failedAuth: 'FORMLOOM_RATE_LIMIT_FAILED_AUTH',
  submissions: 'FORMLOOM_RATE_LIMIT_SUBMISSIONS',
  partialUpdates: 'FORMLOOM_RATE_LIMIT_PARTIAL_UPDATES',
  uploads: 'FORMLOOM_RATE_LIMIT_UPLOADS',
  publicReads: 'FORMLOOM_RATE_LIMIT_PUBLIC_READS',
};

const OFF = /^(0|off|false|no)$/i;

/** The variables above, checked together: a bad one stops the start with one line per bad variable, naming it. */
export function readHttpConfig(env: Env): HttpConfig {
  const problems: string[] = [];
  // Each reader throws for its own variable; the others are still read, so every bad value shows at once.
  const read = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (e) {
      problems.push(...(e as Error).message.split('\n'));
      return fallback;
    }
  };
  const config: HttpConfig = {
    trustProxy: read(() => readTrustProxy(env.FORMLOOM_TRUST_PROXY), false),
    embedOrigins: read(() => readEmbedOrigins(env), '*'),
    rateLimits: read(() => readRateLimits(env), false),
    voiceLimits: read(() => readVoiceLimits(env), {}),
    signup: read(() => readSignupMode(env), 'invite'),
  };
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return config;
}

function readVoiceLimits(env: Env): HttpConfig['voiceLimits'] {
  const allOff = OFF.test(env.FORMLOOM_RATE_LIMITS?.trim() ?? '');
  const out: HttpConfig['voiceLimits'] = {};
  const problems: string[] = [];
  for (const [name, variable] of Object.entries(VOICE_LIMIT_VARIABLES) as Array<[keyof HttpConfig['voiceLimits'], string]>) {
    const v = allOff ? 'off' : readPerMinute(env, variable, problems);
    if (v === 'off') out[name] = 0;
    else if (v !== undefined) out[name] = v;
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return out;
}

/**
 * A limit's variable: requests a minute, `'off'` (`0`, `off`, `false`, `no`), or `undefined` when unset
 * or bad (its line then goes to `problems`).
 */
function readPerMinute(env: Env, variable: string, problems: string[]): number | 'off' | undefined {
  const v = env[variable]?.trim();
  if (!v) return undefined;
  if (OFF.test(v)) return 'off';
  if (/^\d+$/.test(v)) return Number(v);
  problems.push(`${variable}: expected requests a minute (a positive integer) or 0/off, got ${JSON.stringify(v)}`);
  return undefined;
}

/** `true`/`false`, a hop count, or Express's list of trusted addresses and subnets (`loopback, 10.0.0.0/8`). */
function readTrustProxy(raw: string | undefined): boolean | number | string {
  const v = raw?.trim() ?? '';
  if (v === '' || /^(false|no|off)$/i.test(v)) return false;
  if (/^(true|yes|on)$/i.test(v)) return true;
  if (/^\d+$/.test(v)) return Number(v);
  // Express compiles the list when it is set: a typo would otherwise stop the app only once it is built.
  try {
    express().set('trust proxy', v);
  } catch (e) {
    throw new Error(`FORMLOOM_TRUST_PROXY: expected true/false, a hop count, or addresses and subnets such as "loopback, 10.0.0.0/8" (${(e as Error).message})`);
  }
  return v;
}

function readEmbedOrigins(env: Env): EmbedOrigins {
  try {
    return parseEmbedOrigins(env.FORMLOOM_EMBED_ORIGINS);
  } catch (e) {
    throw new Error(`FORMLOOM_EMBED_ORIGINS: ${(e as Error).message.replace(/^embed origins: /, '')}`);
  }
}

function readRateLimits(env: Env): RateLimitOptions | false {
  const all = env.FORMLOOM_RATE_LIMITS?.trim() ?? '';
  if (OFF.test(all)) return false;
  const problems: string[] = [];
  if (all !== '' && !/^(on|true|yes|1)$/i.test(all)) problems.push(`FORMLOOM_RATE_LIMITS: expected off (or 0) to turn every limit off, or on, got ${JSON.stringify(all)}`);
  const options: RateLimitOptions = {};
  for (const [name, variable] of Object.entries(RATE_LIMIT_VARIABLES) as Array<[RateLimitName, string]>) {
    const v = readPerMinute(env, variable, problems);
    if (v === 'off') options[name] = false;
    else if (v !== undefined) options[name] = { limit: v, windowSeconds: DEFAULT_RATE_LIMITS[name].windowSeconds };
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return options;
}
