import { createHash } from 'node:crypto';
import { FormloomError } from '../errors';
import type { FormloomConfig } from '../config';
import type { Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';

/**
 * The voice API's request rates per API key (docs/voice.md, "Rate limits"): generations (speak, script,
 * retakes, streams) and estimates counted apart, in fixed one-minute windows kept in storage, so every
 * instance on one database shares them. Every answer of these routes carries the window's
 * `X-RateLimit-*` headers; past the limit the answer is 429 `RATE_LIMITED` with `Retry-After`.
 */
export type VoiceRequestKind = 'generation' | 'estimate';

const WINDOW_MS = 60_000;

export interface VoiceRateDecision {
  /** `X-RateLimit-Limit`, `X-RateLimit-Remaining`, `X-RateLimit-Reset` (ISO 8601); empty when the limit is off. */
  headers: Record<string, string>;
  /** Set when the request is over the limit: answer it with this error. */
  refusal: FormloomError | null;
}

/** Counts one request of `kind` for the caller's key (its user without a key). */
export async function countVoiceRequest(storage: Storage, clock: Clock, config: FormloomConfig, principal: Principal, kind: VoiceRequestKind): Promise<VoiceRateDecision> {
  const limit = kind === 'estimate' ? config.voice.estimatesPerMinute : config.voice.generationsPerMinute;
  if (!(limit > 0)) return { headers: {}, refusal: null };
  const now = clock.now();
  const subject = createHash('sha256').update(principal.key_id ?? `user:${principal.user_id}`).digest('base64url').slice(0, 32);
  const counter = await storage.rateLimits.hit(`voice_${kind}:${subject}`, now.toISOString(), new Date(now.getTime() + WINDOW_MS).toISOString());
  const headers = {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - counter.hits)),
    'X-RateLimit-Reset': counter.resets_at,
  };
  if (counter.hits <= limit) return { headers, refusal: null };
  const retryAfter = Math.max(1, Math.ceil((Date.parse(counter.resets_at) - now.getTime()) / 1000));
  const what = kind === 'estimate' ? 'estimates' : 'generation requests';
  return { headers, refusal: new FormloomError('RATE_LIMITED', `Over ${limit} ${what} a minute for this API key; retry after ${retryAfter} s`, { retry_after: retryAfter }) };
}
