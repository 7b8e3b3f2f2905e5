import { badRequest, conflict } from '../errors';
import { sha256Hex } from '../hashing';
import type { Storage } from '../ports/storage';
import type { ResponseRecord } from '../domain/types';
import { stableJson } from '../forms/changelog';

/*
 * `Idempotency-Key` on a completed submission (docs/decisions.md "Composite forms", docs/respondents.md): a
 * page that lost the answer to its submission sends it again with the same key and gets the response the first
 * one stored, with nothing written twice: no second response, no second set of component responses, webhooks or
 * mails. The claim is written in the submission's own transaction, so it exists exactly when the response does.
 * Kept 24 hours per form. It keeps the response's id only, never the answers: a replay reads the response as it is
 * stored (one erased since is not answered again). A partial response is not replayed (its resume token is never
 * stored in clear).
 */

const DAY_MS = 24 * 60 * 60 * 1000;


function keyOf(formId: string, key: string): string {
  if (key.length < 1 || key.length > 255) throw badRequest('Idempotency-Key: 1 to 255 characters', { field: 'Idempotency-Key' });
  return `submission:${formId}:${sha256Hex(key)}`;
}

/** The response the key stored, or a 409 when the key came with another body; null when there is none. */
function earlierResponse(record: { owner: string; status: string; result: Record<string, unknown> | null } | null, owner: string): string | null {
  if (!record) return null;
  if (record.owner !== owner) throw conflict('This Idempotency-Key was used with a different submission', { reason: 'idempotency_conflict' });
  const id = record.result?.response_id;
  if (record.status !== 'done' || typeof id !== 'string') throw conflict('A submission with this Idempotency-Key is still being stored; retry shortly', { reason: 'request_in_progress' });
  return id;
}

/** Before any check that a stored response would fail (a one-response visitor, a closed form): the id of the response the key stored. */
export async function replayOf(storage: Storage, formId: string, key: string | undefined, body: unknown): Promise<string | null> {
  if (key === undefined) return null;
  const record = await storage.idempotency.find(keyOf(formId, key));
  return record ? earlierResponse(record, sha256Hex(stableJson(body))) : null;
}

/** The claim a submission makes in its transaction; `claimIn` answers the earlier submission's response id when there is one. */
export function idempotencyClaim(formId: string, key: string, body: unknown, nowIso: string) {
  const stored = keyOf(formId, key);
  const owner = sha256Hex(stableJson(body));
  return {
    async claimIn(tx: Storage): Promise<string | null> {
      const expires_at = new Date(Date.parse(nowIso) + DAY_MS).toISOString();
      if (await tx.idempotency.claim({ key: stored, owner, created_at: nowIso, expires_at }, nowIso)) return null;
      return earlierResponse(await tx.idempotency.find(stored), owner);
    },
    complete: (tx: Storage, responseId: string) => tx.idempotency.complete(stored, { response_id: responseId }),
  };
}

/** The response an earlier submission with the same key stored, as it is now; 409 when it was deleted since. */
export async function storedResponse(storage: Storage, formId: string, responseId: string): Promise<ResponseRecord> {
  const earlier = await storage.responses.findById(formId, responseId);
  if (!earlier) throw conflict('The response this Idempotency-Key stored no longer exists', { reason: 'idempotency_conflict' });
  return earlier;
}
