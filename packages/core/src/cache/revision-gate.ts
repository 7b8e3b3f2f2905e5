import type { CacheRevisionRead, Storage } from '../ports/storage';

/**
 * Reads of the cache revision shared by the requests that ask in the same turn of the event loop: every
 * caller joins the read issued at the next `setImmediate`, which starts after it asked, so it sees every
 * change committed before the caller's request arrived (docs/decisions.md, "Caches checked against a
 * revision"). Under load one round trip serves all the requests parsed from one batch of socket reads.
 */
export class RevisionGate {
  private queued: { formIds: Set<string>; promise: Promise<CacheRevisionRead> } | null = null;

  constructor(private readonly storage: Pick<Storage, 'cacheRevision'>) {}

  /** The revision, and the response count of `formId` when given (absent from the map: no such form). */
  check(formId?: string): Promise<CacheRevisionRead> {
    let queued = this.queued;
    if (!queued) {
      const formIds = new Set<string>();
      let settle!: (p: Promise<CacheRevisionRead>) => void;
      const promise = new Promise<CacheRevisionRead>((resolve) => (settle = resolve));
      queued = this.queued = { formIds, promise };
      setImmediate(() => {
        this.queued = null;
        settle(this.storage.cacheRevision.read([...formIds]));
      });
    }
    if (formId !== undefined) queued.formIds.add(formId);
    return queued.promise;
  }
}
