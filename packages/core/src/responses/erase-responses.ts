import { inject, injectable } from 'tsyringe';
import type { FormRecord, OutboxItem } from '../domain/types';
import type { BlobStore } from '../ports/blob-store';
import type { IdGenerator } from '../ports/id-generator';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Storage } from '../ports/storage';
import type { Clock } from '../ports/clock';
import { TOKENS } from '../tokens';
import { newOutboxItem } from '../outbox/outbox-items';

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
 * Deletes responses of one form and every trace they leave (docs/privacy.md): the rows, the form's counters (in
 * the same transaction), their webhook deliveries (whose bodies hold the answers), their upload rows, and, through
 * the outbox once committed, their files. `inTx` adds work to the transaction, such as an audit entry.
 */
export async function eraseResponses(
  deps: { storage: Storage; ids: IdGenerator; clock: Clock; blobs: BlobStore },
  form: FormRecord,
  ids: string[],
  inTx?: (tx: Storage, erased: number) => Promise<void>,
): Promise<{ erased: number; files: number }> {
  if (!ids.length) return { erased: 0, files: 0 };
  const done = await deps.storage.transaction(async (tx) => {
    const n = await tx.responses.deleteMany(form.id, ids);
    if (n) await tx.forms.addResponseCount(form.id, -n);
    await tx.deliveries.deleteByResponses(form.id, ids);
    const folders = (await tx.uploads.takeByResponses(form.id, ids)).map((u) => uploadFolder(u.key));
    await queueBlobFolders(tx, deps, folders);
    await inTx?.(tx, n);
    return { erased: n, folders };
  });
  // At once where this process holds the store (the queued item repeats it, harmlessly, and covers a failure here).
  for (const f of done.folders) await deps.blobs.deletePrefix(f).catch(() => undefined);
  return { erased: done.erased, files: done.folders.length };
}
