import { inject, injectable, injectAll } from 'tsyringe';
import type { OutboxItem } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import type { FormloomEvents } from '../events';
import type { FormloomConfig } from '../config';
import { TOKENS } from '../tokens';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Logger } from '../logger';
import { errorText, failedAttempt, notSentWarning } from './retry';
import { GroupCommit } from '../responses/group-commit';
import { OutboxSettlements } from './outbox-settlements';
import { type BirthLease, type BirthWorker, housekeepOutbox, OutboxBirths, type WorkerOptions } from './outbox-items';

export { newOutboxItem, type WorkerOptions } from './outbox-items';

interface Held {
  item: OutboxItem;
  /** `performance.now()` at claim: an item that waited too long for its destination is put back. */
  claimedAt: number;
}

/** How long an item is put back when its destination already has as many items waiting as it may hold. */
const DEFER_MS = 500;
/** Items of one destination held (running or waiting) at most, in multiples of `perDestination`. */
const HELD_PER_DESTINATION_FACTOR = 16;
/** How long a birth lease counts against its destination before its items are handed over (a rolled-back one never is). */
const PROMISE_MS = 10_000;

/**
 * Runs the durable outbox: claims due items with a lease (one worker per item, across instances sharing
 * the database), hands each to its kind's handler and settles it. Items run in parallel, at most
 * `perDestination` per destination and `concurrency` in all, and each is settled as soon as it ends
 * (settlements that end together share one transaction), so one slow webhook receiver holds up only its
 * own deliveries (docs/responses-and-webhooks.md). Housekeeping (purging settled items after the
 * configured retention, handlers' sweeps) runs from the same loop. Nothing runs until `start()`; a new
 * item (`outbox.enqueued`) wakes the worker at once.
 */
@injectable()
export class OutboxWorker implements BirthWorker {
  readonly workerId: string;
  private timer: NodeJS.Timeout | null = null;
  private filling: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private opts: Required<WorkerOptions> = {
    pollMs: 500,
    leaseMs: 60_000,
    batchSize: 200,
    concurrency: 200,
    perDestination: 4,
    housekeepingMs: 10 * 60_000,
    maxBackoffMs: 30_000,
  };
  /** While the last poll failed: the wait before the next one, which no wake-up cuts short (docs/operations.md, "Storage outages"). */
  private backoffMs: number | null = null;
  private readonly handlers: Map<string, OutboxHandler>;
  private readonly wake = () => this.backoffMs === null && this.kick();
  /** Stops listening for other instances' items (`storage.outbox.listen`). */
  private unlisten: Promise<() => Promise<void>> | null = null;
  /** Claimed items waiting for a free slot of their destination (`''`: no destination, no limit). */
  private readonly waiting = new Map<string, Held[]>();
  private readonly runningPer = new Map<string, number>();
  /** Destinations the last claim found full (items put back): claims wait until one has room again. */
  private readonly crowded = new Set<string>();
  /** Birth leases not handed over yet, by destination (`performance.now()` of each, oldest first). */
  private readonly promised = new Map<string, number[]>();
  private held = 0;
  private readonly tasks = new Set<Promise<void>>();
  private readonly settlements: OutboxSettlements;
  private housekeeping: Promise<void> | null = null;
  private lastHousekeeping: number | null = null;

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) ids: IdGenerator,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @injectAll(TOKENS.OutboxHandler) handlers: OutboxHandler[],
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(GroupCommit) private readonly commits: GroupCommit,
    @inject(OutboxBirths) private readonly births: OutboxBirths,
  ) {
    this.workerId = ids.id('wrk');
    this.handlers = new Map(handlers.map((h) => [h.kind, h]));
    this.settlements = new OutboxSettlements(this.workerId, this.handlers, clock, commits);
  }

  start(options: WorkerOptions = {}) {
    if (!this.stopped) return;
    this.opts = { ...this.opts, ...options };
    this.stopped = false;
    this.events.on('outbox.enqueued', this.wake);
    this.births.attach(this);
    // Items other instances enqueue wake this one too, where the storage can tell (PostgreSQL NOTIFY).
    const listening = this.storage.outbox.listen?.(this.wake);
    this.unlisten = listening?.catch((err) => {
      this.logger.warn("Listening for other instances' outbox items failed; polling alone", { error: String(err) });
      return async () => undefined;
    }) ?? null;
    this.kick();
  }

  /** Stops claiming, waits for the items under way, and puts back those still waiting for a slot. */
  async stop() {
    this.stopped = true;
    this.events.off('outbox.enqueued', this.wake);
    const unlisten = this.unlisten;
    this.unlisten = null;
    if (unlisten) await (await unlisten)();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.filling;
    for (const queue of this.waiting.values()) {
      for (const h of queue.splice(0)) {
        this.held -= 1;
        this.putBack(h.item, 0);
      }
    }
    this.waiting.clear();
    while (this.tasks.size) await Promise.all([...this.tasks]);
    await this.housekeeping;
    await this.settlements.idle();
  }

  /** Claims now (`polled`: the poll's timer, which claims even while destinations are crowded). */
  private kick(polled = false) {
    if (this.stopped) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.filling = this.fill(polled)
      .catch((e) => this.storageFailed(e))
      .finally(() => {
        this.filling = null;
        if (this.stopped) return;
        if (this.again && this.backoffMs === null) {
          this.again = false;
          this.kick();
        } else {
          this.again = false;
          this.timer = setTimeout(() => this.kick(true), this.backoffMs ?? this.opts.pollMs);
          this.timer.unref?.();
        }
      });
  }

  /**
   * Claims while there is room; the claimed items run on their own. Items handed back (their destination
   * is full) move behind the others in due order, so a later claim reaches other destinations; a claim that
   * kept nothing ends the round, so a large backlog for one destination is not rewritten over and over.
   */
  private async fill(polled: boolean) {
    this.housekeepIfDue();
    while (!this.stopped) {
      const limit = this.claimLimit(polled);
      if (limit <= 0) return;
      const { claimed, kept } = await this.claimAndStart(limit);
      if (claimed === 0 || kept === 0) return;
    }
  }

  /**
   * How many items to claim now. While the last claim found destinations full, a wake-up (a slot freed, a new
   * item) claims only once one of them has room for half its share again, and only that room: each item a
   * claim cannot hold is put back, a write, and claiming at every freed slot rewrote most of a batch per
   * delivery (docs/decisions.md, "The outbox worker"). The poll's timer claims a full batch whatever it found.
   */
  private claimLimit(polled: boolean): number {
    const room = Math.min(this.opts.concurrency - this.held, this.opts.batchSize);
    if (room <= 0 || polled || !this.crowded.size) return room;
    const share = this.opts.perDestination * HELD_PER_DESTINATION_FACTOR;
    let free = 0;
    for (const d of this.crowded) free += Math.max(0, share - this.heldOf(d));
    return free * 2 >= share ? Math.min(room, free) : 0;
  }

  private heldOf(destination: string): number {
    return (this.waiting.get(destination)?.length ?? 0) + (this.runningPer.get(destination) ?? 0);
  }

  /** Birth leases of `destination` whose items are still to be handed over (committing). */
  private promisedFor(destination: string): number {
    const leases = this.promised.get(destination);
    const since = performance.now() - PROMISE_MS;
    while (leases?.length && leases[0]! < since) leases.shift();
    if (leases && !leases.length) this.promised.delete(destination);
    return leases?.length ?? 0;
  }

  /** Claims one batch of due items and carries them out; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const { claimed } = await this.claimAndStart(this.opts.batchSize);
    while (this.tasks.size) await Promise.all([...this.tasks]);
    await this.settlements.idle();
    return claimed;
  }

  private async claimAndStart(limit: number): Promise<{ claimed: number; kept: number }> {
    const now = this.clock.now();
    const items = await this.storage.outbox.claim({
      workerId: this.workerId,
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.opts.leaseMs).toISOString(),
      limit,
      kinds: [...this.handlers.keys()],
    });
    this.storageBack();
    return { claimed: items.length, kept: await this.hold(items, false) };
  }

  /**
   * A lease for an item this instance is about to commit, while this worker has room, and room for its
   * `destination` when given (outbox-items.ts).
   */
  birthLease(kind: string, destination?: string | null): BirthLease | null {
    if (this.stopped || !this.handlers.has(kind) || this.held >= this.opts.concurrency) return null;
    if (destination) {
      // Leases of a commit under way count too: a batch of 128 submissions could otherwise lease far past the share.
      if (this.heldOf(destination) + this.promisedFor(destination) >= this.opts.perDestination * HELD_PER_DESTINATION_FACTOR) return null;
      this.promised.set(destination, (this.promised.get(destination) ?? []).concat(performance.now()));
    }
    return { workerId: this.workerId, leaseUntil: new Date(this.clock.now().getTime() + this.opts.leaseMs).toISOString() };
  }

  /** Carries out committed items leased to this worker at birth, as if just claimed; stopped, it puts them back. */
  adopt(items: OutboxItem[]): void {
    const mine = items.filter((i) => i.locked_by === this.workerId);
    if (!mine.length) return;
    if (this.stopped) return mine.forEach((i) => this.putBack(i, 0));
    this.hold(mine, true).catch((e) => this.report('formloom outbox worker', e));
  }

  /**
   * Queues leased items by destination and starts what has a free slot; returns how many it kept. Claimed
   * items of a destination that holds its share already are put back; items leased at birth are kept (their
   * lease checked the room, and the few committed together past it cost less held than a write each).
   */
  private async hold(items: OutboxItem[], born: boolean): Promise<number> {
    const claimedAt = performance.now();
    const heldPerDestination = this.opts.perDestination * HELD_PER_DESTINATION_FACTOR;
    let kept = 0;
    if (!born) this.crowded.clear();
    for (const item of items) {
      const destination = await this.destinationOf(item);
      if (born) this.promised.get(destination)?.shift();
      const queue = this.waiting.get(destination) ?? [];
      if (!born && destination && queue.length + (this.runningPer.get(destination) ?? 0) >= heldPerDestination) {
        // Holding more would only let this destination's backlog crowd out the others.
        this.crowded.add(destination);
        this.putBack(item, DEFER_MS);
        continue;
      }
      queue.push({ item, claimedAt });
      this.waiting.set(destination, queue);
      this.held += 1;
      kept += 1;
    }
    this.pump();
    return kept;
  }

  private async destinationOf(item: OutboxItem): Promise<string> {
    try {
      return (await this.handlers.get(item.kind)!.destination?.(item)) ?? '';
    } catch {
      return '';
    }
  }

  /** Starts waiting items while their destination has a free slot. */
  private pump() {
    for (const [destination, queue] of this.waiting) {
      const limit = destination ? this.opts.perDestination : Infinity;
      while (queue.length && (this.runningPer.get(destination) ?? 0) < limit) this.begin(destination, queue.shift()!);
      if (!queue.length) this.waiting.delete(destination);
    }
  }

  private begin(destination: string, h: Held) {
    if (performance.now() - h.claimedAt > this.opts.leaseMs / 2) {
      // Its lease could lapse mid-run and another worker take it: hand it back for a fresh claim instead.
      this.held -= 1;
      this.putBack(h.item, 0);
      return;
    }
    this.runningPer.set(destination, (this.runningPer.get(destination) ?? 0) + 1);
    let done = false;
    const free = () => {
      if (done) return;
      done = true;
      this.release(destination);
      this.held -= 1;
      this.kick();
    };
    const task = this.run(h.item)
      .then((outcome) => {
        const unsent = notSentWarning(h.item, outcome);
        if (unsent) this.logger.warn(...unsent);
        const settled = this.settlements.settle(h.item, outcome);
        // An outcome that a repeat would show twice (`holdSlot`: a chat message) keeps its slot until its
        // settlement committed, so at a crash at most `perDestination` such items per destination ran without
        // their outcome recorded. Any other frees the slot at once: its settlement joins the next shared commit
        // (its lease keeps it from being claimed again meanwhile), so waiting for the database does not hold up
        // new work (docs/decisions.md, Integrations, "Through a kill -9").
        if (!outcome.holdSlot) free();
        return settled;
      })
      .catch((e) => this.report('formloom outbox worker', e))
      .finally(() => {
        this.tasks.delete(task);
        free();
      });
    this.tasks.add(task);
  }

  private release(destination: string) {
    const n = (this.runningPer.get(destination) ?? 1) - 1;
    if (n > 0) this.runningPer.set(destination, n);
    else this.runningPer.delete(destination);
    this.pump();
  }

  private async run(item: OutboxItem): Promise<OutboxOutcome> {
    try {
      return await this.handlers.get(item.kind)!.handle(item);
    } catch (e) {
      return failedAttempt(this.clock.now(), item.attempts, errorText(e));
    }
  }

  /** Returns a claimed item unrun, due again in `ms`; its lease is not counted as an attempt. */
  private putBack(item: OutboxItem, ms: number) {
    const nextAttemptAt = new Date(this.clock.now().getTime() + ms).toISOString();
    this.settlements.settle(item, { status: 'pending', nextAttemptAt, error: item.last_error, unrun: true }).catch((e) => this.report('formloom outbox worker', e));
  }


  private housekeepIfDue() {
    const now = this.clock.now().getTime();
    if (this.housekeeping || (this.lastHousekeeping !== null && now - this.lastHousekeeping < this.opts.housekeepingMs)) return;
    this.lastHousekeeping = now;
    this.housekeeping = this.housekeep()
      .catch((e) => this.report('formloom outbox housekeeping', e))
      .finally(() => {
        this.housekeeping = null;
      });
  }

  /**
   * Deletes delivered and failed items settled longer ago than `outboxRetentionMs` and expired idempotency
   * keys (docs/operations.md, "Outbox"), then runs the handlers' sweeps (docs/security.md). Runs from the
   * worker's loop every `housekeepingMs`; `now` is the instance's clock (tests pass another time).
   */
  housekeep(now: Date = this.clock.now()): Promise<void> {
    return housekeepOutbox(this.storage, this.config.outboxRetentionMs, [...this.handlers.values()], now, (where, e) => this.report(where, e));
  }

  /**
   * A poll failed (the storage is down, most likely): one line when that starts, then polls spaced out,
   * doubling up to `maxBackoffMs`, so an outage is neither a flood of lines nor of connection attempts.
   */
  private storageFailed(e: unknown) {
    if (this.backoffMs === null) {
      this.logger.warn('formloom outbox worker: storage unavailable, backing off', { error: errorText(e) });
      this.backoffMs = Math.min(this.opts.pollMs * 2, this.opts.maxBackoffMs);
    } else {
      this.backoffMs = Math.min(this.backoffMs * 2, this.opts.maxBackoffMs);
    }
  }

  private storageBack() {
    if (this.backoffMs === null) return;
    this.backoffMs = null;
    this.logger.info('formloom outbox worker: storage back, resuming', {});
  }

  /** Unexpected failures go to the instance's logger (`createFormloom({ logger })`); during an outage the one line said it. */
  private report(where: string, e: unknown) {
    if (this.backoffMs !== null) return;
    this.logger.error(`${where}: ${errorText(e)}`, { error: errorText(e) });
  }
}
