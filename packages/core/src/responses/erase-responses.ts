import { inject, injectable } from 'tsyringe';
import type { FormRecord, OutboxItem } from '../domain/types';
import type { BlobStore } from '../ports/blob-store';
import type { IdGenerator } from '../ports/id-generator';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Storage } from '../ports/storage';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';
import { newOutboxItem } from '../outbox/outbox-items';
import type { WebhookDispatcher } from '../webhooks/webhook-dispatcher';

/** The outbox kind that deletes blob folders after the rows naming them are gone (`BlobFoldersHandler`). */
export const BLOB_FOLDERS_KIND = 'blob_folders_delete';

/** Blob folders a deletion leaves: `uploads/<form>/<token>/`, `voice/<generation>/`. Nothing else is accepted. */
const FOLDER = /^(uploads\/[A-Za-z0-9_]+\/[A-Za-z0-9_-]+|voice\/[A-Za-z0-9_]+)\/$/;

/**
 * Queues, in `tx`, the deletion of blob folders whose rows `tx` deletes: the outbox deletes them once the
 * transaction committed, from whichever instance (or the CLI's database) wrote it, retried until the store
 * answers, and never before (a rolled-back erasure keeps its files).
 */
export async function queueBlobFolders(tx: Storage, deps: { ids: IdGenerator; clock: Clock }, folders: string[]): Promise<void> {
  const valid = [...new Set(folders)].filter((f) => FOLDER.test(f));
  // Many small items rather than one huge payload: an erasure of thousands of files stays within a row.
  for (let i = 0; i < valid.length; i += 200) {
    await tx.outbox.enqueue(newOutboxItem(deps.ids, deps.clock.now().toISOString(), BLOB_FOLDERS_KIND, { folders: valid.slice(i, i + 200) }));
  }
}

/** The folder of an upload's key: `uploads/<form>/<token>/cv.pdf` -> `uploads/<form>/<token>/`. */
export const uploadFolder = (key: string) => key.slice(0, key.lastIndexOf('/') + 1);

@injectable()
export class BlobFoldersHandler implements OutboxHandler {
  readonly kind = BLOB_FOLDERS_KIND;
  constructor(@inject(TOKENS.BlobStore) private readonly blobs: BlobStore) {}

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const folders = Array.isArray(item.payload.folders) ? item.payload.folders.filter((f): f is string => typeof f === 'string' && FOLDER.test(f)) : [];
    for (const f of folders) await this.blobs.deletePrefix(f);
    return { status: 'delivered' };
  }
}

/**
 * Why responses were erased, as the `response.deleted` webhook event says (docs/responses-and-webhooks.md): a
 * respondent's request, the form's retention, or the owner's delete from the results or the API.
 */
export type ErasureReason = 'erasure' | 'retention' | 'deleted';

/**
 * Deletes responses of one form and every trace they leave (docs/privacy.md): the rows, the form's counters (in
 * the same transaction), their webhook deliveries (whose bodies hold the answers), their upload rows, and, through
 * the outbox once committed, their files. With `webhooks`, the form's webhook targets get a `response.deleted`
 * event naming the deleted responses (never their answers), so receivers holding copies can delete them too.
 * `inTx` adds work to the transaction, such as an audit entry.
 */
export async function eraseResponses(
  deps: { storage: Storage; ids: IdGenerator; clock: Clock; blobs: BlobStore; webhooks?: WebhookDispatcher },
  form: FormRecord,
  ids: string[],
  options: { reason: ErasureReason; inTx?: (tx: Storage, erased: number) => Promise<void> },
): Promise<{ erased: number; files: number; events: number }> {
  if (!ids.length) return { erased: 0, files: 0, events: 0 };
  // Read before the transaction, as a submission reads them (the targets follow the plan and the settings).
  const targets = deps.webhooks ? await deps.webhooks.targetsFor(form) : [];
  const done = await deps.storage.transaction(async (tx) => {
    const n = await tx.responses.deleteMany(form.id, ids);
    if (n) await tx.forms.addResponseCount(form.id, -n);
    await tx.deliveries.deleteByResponses(form.id, ids);
    const folders = (await tx.uploads.takeByResponses(form.id, ids)).map((u) => uploadFolder(u.key));
    await queueBlobFolders(tx, deps, folders);
    // Only when this call deleted some: of two sweeps racing, the one that deleted nothing tells no one.
    if (n && targets.length && deps.webhooks) {
      const body = JSON.stringify({ event: 'response.deleted', form_id: form.id, form_title: form.title, response_ids: ids, reason: options.reason, deleted_at: deps.clock.now().toISOString() });
      await deps.webhooks.enqueueEvent(tx, form, null, targets, 'response.deleted', body);
    }
    await options.inTx?.(tx, n);
    return { erased: n, folders, events: n ? targets.length : 0 };
  });
  // At once where this process holds the store (the queued item repeats it, harmlessly, and covers a failure here).
  for (const f of done.folders) await deps.blobs.deletePrefix(f).catch(() => undefined);
  return { erased: done.erased, files: done.folders.length, events: done.events };
}
