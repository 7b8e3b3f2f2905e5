import type { FormRecord } from '../domain/types';
import type { BlobStore } from '../ports/blob-store';
import type { Storage } from '../ports/storage';
import type { Logger } from '../logger';

/**
 * Deletes responses of one form and every trace they leave (docs/privacy.md): the rows, the form's counters (in
 * the same transaction), their webhook deliveries (whose bodies hold the answers) and their uploaded files, whose
 * blobs go after the commit (one that fails to go is unreachable: no row names it). `inTx` adds work to the
 * transaction, such as an audit entry. Returns how many responses and files went.
 */
export async function eraseResponses(
  deps: { storage: Storage; blobs: BlobStore; logger: Logger },
  form: FormRecord,
  ids: string[],
  inTx?: (tx: Storage, erased: number) => Promise<void>,
): Promise<{ erased: number; files: number }> {
  if (!ids.length) return { erased: 0, files: 0 };
  const keys: string[] = [];
  const erased = await deps.storage.transaction(async (tx) => {
    const n = await tx.responses.deleteMany(form.id, ids);
    if (n) await tx.forms.addResponseCount(form.id, -n);
    await tx.deliveries.deleteByResponses(form.id, ids);
    keys.push(...(await tx.uploads.takeByResponses(form.id, ids)).map((u) => u.key));
    await inTx?.(tx, n);
    return n;
  });
  for (const key of keys) {
    const folder = key.slice(0, key.lastIndexOf('/') + 1);
    await deps.blobs.deletePrefix(folder).catch((e: unknown) => deps.logger.warn(`could not delete the uploaded file ${folder}: ${e instanceof Error ? e.message : String(e)}`));
  }
  return { erased, files: keys.length };
}
