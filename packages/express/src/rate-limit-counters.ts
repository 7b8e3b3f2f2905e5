import type { RateLimitCounter, RateLimitRepository } from '@formloom/core';

/** Where counters live: the storage's `rateLimits` by default, shared by every instance on the database. */
export type RateLimitStore = Pick<RateLimitRepository, 'hit' | 'release' | 'peek' | 'prune'>;

/** Counters in this process's memory: for an embedding host with one instance (they are not shared nor kept). */
export function memoryRateLimitStore(): RateLimitStore {
  const counters = new Map<string, { hits: number; resets_at: string }>();
  return {
    async hit(key, now, resetsAt, by = 1) {
      const c = counters.get(key);
      const next = c && c.resets_at > now ? { hits: c.hits + by, resets_at: c.resets_at } : { hits: by, resets_at: resetsAt };
      counters.set(key, next);
      return { ...next };
    },
    async release(key, now) {
      const c = counters.get(key);
      if (c && c.resets_at > now && c.hits > 0) c.hits -= 1;
    },
    async peek(key, now) {
      const c = counters.get(key);
      return c && c.resets_at > now ? { ...c } : null;
    },
    async prune(before) {
      let n = 0;
      for (const [key, c] of counters) if (c.resets_at <= before && counters.delete(key)) n += 1;
      return n;
    },
  };
}

/** Limits this low are always counted in the store, one write per hit: every hit matters to them. */
export const MIN_BATCHED_LIMIT = 100;
/** Hits are batched only while the count stays under this share of the limit; past it each hit is written at once. */
const BATCHED_SHARE = 0.5;
/** How long hits wait in memory before they are written to the store. */
const FLUSH_EVERY_MS = 200;

interface LocalCounter {
  /** The store's count at the last write or read. */
  hits: number;
  resets_at: string;
  /** `resets_at` in ms: requests compare numbers, not ISO strings made for each. */
  resetsMs: number;
  /** Hits counted here and not yet written to the store. */
  pending: number;
}

/** A counter as `hit` answers it, with its end in ms (`Date.parse(resets_at)`). */
export type TimedCounter = RateLimitCounter & { resets_ms: number };

/**
 * A write-behind layer over the shared counters (docs/security.md, "Rate limits"). Far below its limit,
 * a key's hits are counted in this process and written to the store in one batch every 200 ms, so a busy
 * API key costs a database write five times a second rather than once per request; once the known count
 * reaches half the limit, or for limits under 100 (failed authentication), every hit is one atomic write,
 * exact across instances. What the shared count may lag behind is one flush interval of each instance's
 * hits, far less than the half of the limit that separates batching from the limit itself.
 */
export class BatchedCounters {
  private readonly local = new Map<string, LocalCounter>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly store: RateLimitStore,
    private readonly clock: { now(): Date },
  ) {}

  /**
   * Counts one hit on `key` of a limit of `limit` hits in windows of `windowMs`; the counter after it (this
   * process's view). A batched hit makes no date string: only a write to the store needs them.
   */
  hit(key: string, limit: number, now: Date, windowMs: number): TimedCounter | Promise<TimedCounter> {
    const nowMs = now.getTime();
    const c = this.current(key, nowMs);
    if (c && limit >= MIN_BATCHED_LIMIT && c.hits + c.pending + 1 <= limit * BATCHED_SHARE) {
      c.pending += 1;
      this.scheduleFlush();
      // Answered at once, not as a promise: a batched hit waits for nothing.
      return { hits: c.hits + c.pending, resets_at: c.resets_at, resets_ms: c.resetsMs };
    }
    return this.write(key, c, now, windowMs);
  }

  /** A hit written to the store at once. */
  private async write(key: string, c: LocalCounter | null, now: Date, windowMs: number): Promise<TimedCounter> {
    const nowMs = now.getTime();
    // One write carries this hit and any still waiting, so that the count it answers is complete.
    const by = 1 + (c ? c.pending : 0);
    if (c) c.pending = 0;
    try {
      return this.remember(key, await this.store.hit(key, now.toISOString(), new Date(nowMs + windowMs).toISOString(), by));
    } catch (e) {
      if (c) c.pending += by - 1;
      throw e;
    }
  }

  /** Takes back one hit of the running window: a waiting one if there is one, else one in the store. */
  async release(key: string, now: Date): Promise<void> {
    const c = this.current(key, now.getTime());
    if (c && c.pending > 0) {
      c.pending -= 1;
      return;
    }
    await this.store.release(key, now.toISOString());
    if (c && c.hits > 0) c.hits -= 1;
  }

  /** The key's counter as the store has it, plus this process's waiting hits; counts nothing. */
  async peek(key: string, now: Date): Promise<RateLimitCounter | null> {
    const nowIso = now.toISOString();
    const stored = await this.store.peek(key, nowIso);
    const c = this.current(key, now.getTime());
    if (stored) this.remember(key, stored);
    const pending = c ? c.pending : 0;
    if (!stored) return pending > 0 && c ? { hits: pending, resets_at: c.resets_at } : null;
    return { hits: stored.hits + pending, resets_at: stored.resets_at };
  }

  /** The key's count as this process last saw it, with its waiting hits; 0 when it knows of none. Reads nothing. */
  knownHits(key: string, now: Date): number {
    const c = this.current(key, now.getTime());
    return c ? c.hits + c.pending : 0;
  }

  /** Drops what this process remembers of ended windows (their waiting hits no longer count). */
  forgetEnded(now: Date): void {
    const nowMs = now.getTime();
    for (const [key, c] of this.local) if (c.resetsMs <= nowMs) this.local.delete(key);
  }

  /** Writes every waiting hit now (also run by the timer). */
  async flush(): Promise<void> {
    this.timer = null;
    const now = this.clock.now();
    const nowIso = now.toISOString();
    const writes: Promise<unknown>[] = [];
    for (const [key, c] of this.local) {
      if (c.pending === 0) continue;
      if (c.resetsMs <= now.getTime()) {
        this.local.delete(key);
        continue;
      }
      const by = c.pending;
      c.pending = 0;
      writes.push(
        this.store.hit(key, nowIso, c.resets_at, by).then(
          (counter) => this.remember(key, counter),
          // A store that is down loses these hits rather than the requests: the next write retries nothing.
          () => undefined,
        ),
      );
    }
    await Promise.all(writes);
  }

  private current(key: string, nowMs: number): LocalCounter | null {
    const c = this.local.get(key);
    if (!c) return null;
    if (c.resetsMs > nowMs) return c;
    this.local.delete(key);
    return null;
  }

  private remember(key: string, counter: RateLimitCounter): TimedCounter {
    const c = this.local.get(key);
    if (c && c.resets_at === counter.resets_at) {
      // Hits counted while the write was under way stay waiting on top of what the store answered.
      c.hits = counter.hits;
      return { hits: counter.hits + c.pending, resets_at: counter.resets_at, resets_ms: c.resetsMs };
    }
    const resetsMs = Date.parse(counter.resets_at);
    this.local.set(key, { hits: counter.hits, resets_at: counter.resets_at, resetsMs, pending: 0 });
    return { hits: counter.hits, resets_at: counter.resets_at, resets_ms: resetsMs };
  }

  private scheduleFlush() {
    if (this.timer) return;
    this.timer = setTimeout(() => void this.flush(), FLUSH_EVERY_MS);
    // Waiting hits never keep a process alive that is otherwise done.
    this.timer.unref?.();
  }
}
