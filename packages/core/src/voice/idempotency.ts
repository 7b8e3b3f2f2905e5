import { createHash } from 'node:crypto';
import { badRequest, conflict } from '../errors';
import type { Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a finished idempotent request left: enough to answer a replay. */
export interface IdempotentResult extends Record<string, unknown> {
  generation_id: string;
}

/** JSON with sorted keys: two bodies that differ only in key order are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export type IdempotencyClaim =
  | { kind: 'new'; complete(result: IdempotentResult): Promise<void>; release(): Promise<void> }
  | { kind: 'replay'; result: IdempotentResult };

/**
 * `Idempotency-Key` on voice requests (docs/voice.md, "Idempotency"): remembered 24 hours per API key.
 * The first request claims the key (exactly one of concurrent claims wins); the same key with the same
 * body replays the stored result; another body is 409 `idempotency_conflict`; while the first still runs,
 * 409 `request_in_progress` (the route adds `Retry-After`).
 */
export async function claimIdempotency(storage: Storage, clock: Clock, principal: Principal, key: string, scope: string, body: unknown): Promise<IdempotencyClaim> {
  if (key.length < 1 || key.length > 255) throw badRequest('Idempotency-Key: 1 to 255 characters', { field: 'Idempotency-Key' });
  const stored = `voice:${principal.key_id ?? principal.user_id}:${createHash('sha256').update(key).digest('hex')}`;
  const owner = createHash('sha256').update(`${scope}\u0000${canonical(body)}`).digest('hex');
  const now = clock.now();
  const claimed = await storage.idempotency.claim({ key: stored, owner, created_at: now.toISOString(), expires_at: new Date(now.getTime() + DAY_MS).toISOString() }, now.toISOString());
  if (claimed) {
    return {
      kind: 'new',
      complete: (result) => storage.idempotency.complete(stored, result),
      release: () => storage.idempotency.release(stored),
    };
  }
  const record = await storage.idempotency.find(stored);
  if (record && record.owner !== owner) {
    throw conflict('This Idempotency-Key was used with a different request body', { reason: 'idempotency_conflict' });
  }
  if (!record || record.status !== 'done' || !record.result) {
    throw conflict('A request with this Idempotency-Key is still running; retry shortly', { reason: 'request_in_progress', retry_after: 1 });
  }
  return { kind: 'replay', result: record.result as IdempotentResult };
}
