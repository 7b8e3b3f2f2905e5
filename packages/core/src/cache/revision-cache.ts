import { IdleSweep, type Sweepable } from './idle-sweep';

/**
 * Values kept in memory with the cache revision they were loaded under: one is served only while a
 * revision read issued after the request arrived still gives that revision. The revision must have been
 * read before the value was loaded, so a change committed in between makes the value look stale, never
 * fresh. Bounded: past `max` entries the least recently stored goes; and a value unused for a period of
 * `idle` goes at its sweep (idle-sweep.ts), so what a burst of traffic filled does not stay for good.
 */
export class RevisionCache<K, V> implements Sweepable {
  private readonly entries = new Map<K, { revision: number; value: V; used: number }>();

  constructor(
    private readonly max: number,
    private readonly idle: IdleSweep = new IdleSweep(),
  ) {
    idle.track(this);
  }

  /** The value under `key` whatever its revision (a hint, e.g. which form a slug named last time). */
  peek(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  /** The kept value of `key` when it was loaded under `revision`, else undefined: `get`'s hit, with no promise. */
  at(key: K, revision: number): V | undefined {
    const kept = this.entries.get(key);
    if (!kept || kept.revision !== revision) return undefined;
    kept.used = this.idle.tick;
    return kept.value;
  }

  /**
   * The value of `key` at `revision`: the kept one when it was loaded under that revision, else `load()`'s
   * (kept unless `null`). `fresh` tells which.
   */
  async get(key: K, revision: number, load: () => Promise<V | null>): Promise<{ value: V | null; fresh: boolean }> {
    const kept = this.at(key, revision);
    if (kept !== undefined) return { value: kept, fresh: false };
    const value = await load();
    this.entries.delete(key);
    if (value !== null) {
      this.entries.set(key, { revision, value, used: this.idle.tick });
      if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as K);
      this.idle.stored();
    }
    return { value, fresh: true };
  }

  /** Drops the values last used before `tick`; @returns how many are left. */
  sweep(tick: number): number {
    for (const [key, kept] of this.entries) if (kept.used < tick) this.entries.delete(key);
    return this.entries.size;
  }
}
