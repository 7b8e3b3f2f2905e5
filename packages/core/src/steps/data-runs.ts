import type { Question, ResponseRecord } from '../domain/types';
import type { Storage } from '../ports/storage';

// What a response's data nodes set (docs/logic.md, "Data nodes"), kept per response and node in the idempotency
// store: the steps after a node and the response's completion read it, the completion stores it.

/** How long a response's data node outcome is kept for its completion (a partial response may resume later). */
const RUN_KEPT_MS = 30 * 24 * 3600_000;
const dataRunKey = (responseId: string, questionId: string) => `data-run:${responseId}:${questionId}`;

/** Keeps the hidden values node `questionId` set for the response (a run again replaces them). */
export async function keepDataRun(storage: Storage, formId: string, responseId: string, questionId: string, hidden: Record<string, string>, now: Date): Promise<void> {
  const run = dataRunKey(responseId, questionId);
  await storage.idempotency.release(run);
  const keep = new Date(now.getTime() + RUN_KEPT_MS).toISOString();
  if (await storage.idempotency.claim({ key: run, owner: formId, created_at: now.toISOString(), expires_at: keep }, now.toISOString())) {
    await storage.idempotency.complete(run, { hidden });
  }
}

/**
 * The hidden field values the data nodes of a response set, for the logic of the steps after them and of its
 * completion: a node's fallback path tests its `status_field`. Nothing is read for forms without data nodes.
 */
export async function dataNodeHidden(storage: Storage, responseId: string, questions: readonly Question[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const q of questions.filter((x) => x.type === 'data')) {
    const r = await storage.idempotency.find(dataRunKey(responseId, q.id));
    if (r?.status === 'done' && r.result?.hidden) Object.assign(out, r.result.hidden as Record<string, string>);
  }
  return out;
}

/**
 * The response's metadata with the hidden fields its data nodes set over those it was given (the page merges
 * them so too), as its completion stores them in `metadata.hidden`; null when no data node set any, and the
 * metadata is kept as it is.
 */
export async function withDataNodeHidden(storage: Storage, response: ResponseRecord, questions: readonly Question[]): Promise<ResponseRecord['metadata'] | null> {
  const set = await dataNodeHidden(storage, response.id, questions);
  return Object.keys(set).length ? { ...response.metadata, hidden: { ...response.metadata.hidden, ...set } } : null;
}
