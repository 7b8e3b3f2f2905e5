import type { Db } from '../sql/db';
import type { Dialect } from '../sql/dialect';
import { questionOrder } from './question-days';
import { indexDeltas } from './response-days';
import { catchUp, INDEX_BATCH, indexRead, queuedForms, queuedResponses } from './response-indexer';

/*
 * When the analytics indexer (response-indexer.ts) writes: after the submissions, not between them
 * (docs/decisions.md, "The analytics indexer"). A background slice holds SQLite's one writer for tens of
 * milliseconds, and every group commit arriving meanwhile waits for it: that wait was the ingest's p99
 * (docs/benchmarks.md, "The analytics indexer"). Acknowledging a submission comes first, so while commits keep
 * queuing responses the indexer waits; once none has for `quietMs` (the writer idle) it counts the backlog in
 * large transactions, which cost about half the CPU per response of small ones (each transaction rewrites the
 * counters' hot pages). Under a stream that never pauses, a bound on the backlog (`maxBacklog` responses, or its
 * oldest `maxDelayMs` old) makes it count anyway, in short slices the waiting commits go between, so that a read's
 * catch-up (which readers always do first, so they never see the lag) never has more than about that to count.
 */

/**
 * Responses per write transaction of a background batch while the writer is idle: the whole batch, the cheapest per
 * response (a read catching up 5,000 took 220 µs each on a quiet machine, in transactions of 500; background batches
 * in slices of 250 took about twice that after the bench's runs). A submission that arrives meanwhile waits for it,
 * once: the indexer gives way before its next.
 */
export const IDLE_SLICE = INDEX_BATCH;
/**
 * Responses per write transaction while submissions commit (the backlog past its bound: more arrive than the writer
 * has room for). Every group commit that arrives during one waits for it, so it is shorter than an idle one; but there
 * every response must be counted as fast as they arrive, and slices of 250 took a fifth to a quarter less CPU per
 * submission in the bench than slices of 50 (the indexer's slice when it ran between the commits all the time), with
 * more throughput, for longer waits (docs/benchmarks.md, "The indexer yields to submissions").
 */
const FORCED_SLICE = 250;

/** What the indexer runs on: reads outside any transaction, and transactions of its own. */
export interface IndexerHost {
  readonly db: Db;
  readonly d: Dialect;
  /** Runs `work` in a new transaction, never in one a caller has open. */
  transaction<T>(work: (db: Db) => Promise<T>): Promise<T>;
  /** Whether another transaction holds or waits for the writer now (SQLite's one writer; absent elsewhere). */
  writerBusy?: () => boolean;
}

export interface IndexerOptions {
  /**
   * How long after a commit that queued responses the indexer looks again: the longer, the more responses a batch
   * sums, while readers never wait for it (they catch up).
   */
  debounceMs?: number;
  /** How often it looks for queued responses without being woken (another instance's, a crash's backlog). */
  intervalMs?: number;
  /** How long no commit may have queued responses before a background batch starts (0: at once). */
  quietMs?: number;
  /** The longest a backlog waits for a quiet writer: past it, the indexer counts it between the commits. */
  maxDelayMs?: number;
  /** The most responses queued since the indexer last emptied the queue before it counts them anyway. */
  maxBacklog?: number;
}

/**
 * The background indexer of one storage: told of every commit that queued responses (`queued`), woken every
 * `intervalMs` and once when started (a backlog left by a crash). Nothing runs until `start()`; `stop()` waits for a
 * running pass.
 */
export class ResponseIndexer {
  private stopped = true;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt = 0;
  private interval: ReturnType<typeof setInterval> | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private readonly debounceMs: number;
  private readonly intervalMs: number;
  private readonly quietMs: number;
  private readonly maxDelayMs: number;
  private readonly maxBacklog: number;
  /** When a commit last queued responses (`performance.now()`). */
  private lastQueuedAt = -Infinity;
  /** Responses queued since the indexer last found the queue empty, as far as this instance knows, and since when. */
  private backlog = 0;
  private backlogSince: number | null = null;
  /** Between the backlog's reaching `maxBacklog` and its being counted down to `shrinkTo`. */
  private shrinking = false;
  private readonly shrinkTo: number;

  constructor(
    private readonly host: IndexerHost,
    options: IndexerOptions = {},
  ) {
    this.debounceMs = options.debounceMs ?? 200;
    this.intervalMs = options.intervalMs ?? 1000;
    this.quietMs = options.quietMs ?? 200;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.maxBacklog = options.maxBacklog ?? 5000;
    this.shrinkTo = Math.max(this.maxBacklog / 2, this.maxBacklog - INDEX_BATCH);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.interval = setInterval(() => this.wake(0), this.intervalMs);
    this.interval.unref?.();
    this.wake(0);
  }

  /** A transaction that queued `count` responses has committed. */
  queued(count = 1): void {
    const now = performance.now();
    this.lastQueuedAt = now;
    this.backlog += count;
    this.backlogSince ??= now;
    this.wake();
  }

  /** Runs a pass after `delay` ms (later while commits keep queuing responses), or after the running one. */
  wake(delay = this.debounceMs): void {
    if (this.stopped) return;
    if (this.running) return void (this.again = true);
    const at = performance.now() + delay;
    if (this.timer) {
      // A deferred pass due later (waiting for quiet) is brought forward: the backlog may have reached its bound.
      if (this.timerAt <= at) return;
      clearTimeout(this.timer);
    }
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.stopped || this.running) return;
      const now = performance.now();
      const wait = this.deferral(now);
      if (wait > 0) {
        // Something may be queued (the interval's look, a crash's backlog): the bound holds for it too.
        this.backlogSince ??= now;
        return void this.wake(wait);
      }
      this.again = false;
      this.running = this.pass(now).then(
        (more) => {
          this.running = null;
          if (more) this.wake(0);
          // Responses queued meanwhile, or a pass that gave way to submissions: looked at again.
          else if (this.again || this.backlogSince !== null) this.wake();
        },
        () => {
          // The storage is closing or the database is down: the interval tries again.
          this.running = null;
        },
      );
    }, delay);
    this.timer.unref?.();
  }

  /** Whether the backlog has passed its bound: then it is counted even while submissions commit. */
  private overdue(now: number): boolean {
    // Past the size bound, counted down by a batch or so before the indexer waits again.
    if (this.backlog >= this.maxBacklog) this.shrinking = true;
    else if (this.backlog <= this.shrinkTo) this.shrinking = false;
    return this.shrinking || this.tooOld(now);
  }

  private tooOld(now: number): boolean {
    return this.backlogSince !== null && now - this.backlogSince >= this.maxDelayMs;
  }

  /** Whether submissions are committing: one queued responses within `quietMs`, or the writer is taken. */
  private busy(now: number): boolean {
    return now - this.lastQueuedAt < this.quietMs || (this.host.writerBusy?.() ?? false);
  }

  /** How long to wait before a background pass: 0 to run now. */
  private deferral(now: number): number {
    if (this.overdue(now) || !this.busy(now)) return 0;
    const untilBound = this.backlogSince === null ? this.maxDelayMs : this.backlogSince + this.maxDelayMs - now;
    const untilQuiet = this.lastQueuedAt + this.quietMs - now;
    // A writer taken by other work (no submission): looked at again soon.
    return Math.max(1, Math.min(untilBound, untilQuiet > 0 ? untilQuiet : Math.max(10, this.quietMs / 4)));
  }

  /**
   * One batch per form with responses waiting; true when there is more to do now (a batch read all it asked for). A form whose
   * batch fails (deleted meanwhile, the database gone) does not hold up the others: the pass goes on, then fails.
   * While the backlog is within its bounds (an idle writer), the pass stops as soon as a commit queues responses or
   * takes the writer, and the rest waits for the next quiet moment. Past the size bound, it counts a batch or so
   * (down to `shrinkTo`), and the rest waits likewise: under a stream that never pauses it counts as many as arrive,
   * no more (counting all would interrupt the submissions for longer, in costlier small transactions); past the
   * age bound, everything queued is counted.
   */
  private async pass(now: number): Promise<boolean> {
    const { db, d } = this.host;
    const started = performance.now();
    // Counted from here: responses queued during the pass make a backlog of their own.
    const [known, since] = [this.backlog, this.backlogSince];
    const forced = this.overdue(now);
    let quota = !forced || this.tooOld(now) ? Infinity : known - this.shrinkTo;
    this.backlog = 0;
    this.backlogSince = null;
    let counted = 0;
    let full = false;
    let yielded = false;
    let failed: unknown = null;
    try {
      for (const formId of await queuedForms(db, d, 50)) {
        if (this.stopped || quota <= 0) break;
        try {
          const batch = await this.batch(formId, forced, started, quota);
          counted += batch.counted;
          quota -= batch.counted;
          if (batch.more) full = true;
          if ((yielded = batch.yielded)) break;
        } catch (err) {
          failed ??= err;
        }
      }
    } catch (err) {
      failed ??= err;
    }
    if (full || yielded || failed || this.stopped || quota <= 0) {
      // The queue was not emptied: what was left keeps its age.
      this.backlog += Math.max(0, known - counted);
      if (since !== null) this.backlogSince = Math.min(since, this.backlogSince ?? since);
    }
    if (failed) throw failed;
    return full && !yielded && quota > 0;
  }

  /**
   * Up to INDEX_BATCH of the form's queued responses, read and their deltas computed outside any transaction, then
   * written in slices, each in its own transaction (`indexRead`): of IDLE_SLICE while the writer is idle, of
   * FORCED_SLICE while submissions commit (`forced` only), so that the waiting group commits go between two. Not
   * forced, it stops before a slice once a commit has queued responses since `since` or the writer is taken; forced,
   * once it has counted `quota`.
   */
  private async batch(formId: string, forced: boolean, since: number, quota: number): Promise<{ more: boolean; counted: number; yielded: boolean }> {
    const { db, d } = this.host;
    // No more read than the quota needs (a pass under a stream counts a few slices at a time).
    const limit = Math.min(INDEX_BATCH, Math.ceil(quota / FORCED_SLICE) * FORCED_SLICE);
    const [rows, order] = await Promise.all([queuedResponses(db, d, formId, limit), questionOrder(db, d, formId)]);
    const more = rows.length >= limit;
    let counted = 0;
    for (let i = 0; i < rows.length && !this.stopped && counted < quota; ) {
      const now = performance.now();
      const busy = this.lastQueuedAt > since || this.busy(now);
      if (busy && !forced) return { more, counted, yielded: true };
      const slice = rows.slice(i, (i += busy ? FORCED_SLICE : IDLE_SLICE));
      const deltas = indexDeltas(formId, slice, [], order);
      counted += await this.host.transaction((tx) => indexRead(tx, d, formId, slice, deltas, order));
      since = now;
    }
    return { more, counted, yielded: false };
  }

  /** Counts the form's queued responses now, as a read would (`catchUp`). */
  catchUp(formId: string): Promise<void> {
    return catchUp(this.host.db, this.host.d, (work) => this.host.transaction(work), formId);
  }

  /** Counts every queued response now (tests, benches); resolves when none is left. */
  async drain(): Promise<void> {
    for (;;) {
      const forms = await queuedForms(this.host.db, this.host.d, 50);
      if (forms.length === 0) return;
      for (const formId of forms) await this.catchUp(formId);
    }
  }

  /** Stops the timers and waits for the pass under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.interval) clearInterval(this.interval);
    this.timer = null;
    this.interval = null;
    await this.running;
  }
}
