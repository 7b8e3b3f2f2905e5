import { inject, injectable, injectAll } from 'tsyringe';
import type { OutboxItem } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import type { FormloomEvents } from '../events';
import { TOKENS } from '../tokens';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Logger } from '../logger';
import { errorText, failedAttempt } from './retry';

export interface WorkerOptions {
  /** How often to look for due items when not woken by a new one (ms). */
  pollMs?: number;
  /** How long a claimed item stays leased to this worker; a crashed worker's items return after it (ms). */
  leaseMs?: number;
  batchSize?: number;
}

/** A new pending outbox item of `kind`, due at `now`. */
export function newOutboxItem(ids: IdGenerator, now: string, kind: string, payload: Record<string, unknown>): OutboxItem {
  return {
    id: ids.id('obx'),
    kind,
    payload,
    status: 'pending',
    attempts: 0,
    next_attempt_at: now,
    locked_by: null,
    locked_until: null,
    last_error: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Runs the durable outbox: claims due items with a lease (one worker per item, across instances sharing
 * the database), hands each to its kind's handler and settles it. Nothing runs until `start()`; a new
 * item (`outbox.enqueued`) wakes the worker at once.
 */
@injectable()
export class OutboxWorker {
  readonly workerId: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private opts: Required<WorkerOptions> = { pollMs: 500, leaseMs: 60_000, batchSize: 100 };
  private readonly handlers: Map<string, OutboxHandler>;
  private readonly wake = () => this.kick();

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) ids: IdGenerator,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @injectAll(TOKENS.OutboxHandler) handlers: OutboxHandler[],
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {
    this.workerId = ids.id('wrk');
    this.handlers = new Map(handlers.map((h) => [h.kind, h]));
  }

  start(options: WorkerOptions = {}) {
    if (!this.stopped) return;
    this.opts = { ...this.opts, ...options };
    this.stopped = false;
    this.events.on('outbox.enqueued', this.wake);
    this.kick();
  }

  /** Stops polling and waits for the items under way. */
  async stop() {
    this.stopped = true;
    this.events.off('outbox.enqueued', this.wake);
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private kick() {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = this.drain()
      .catch((e) => this.logger.error('formloom outbox worker: a batch failed', { error: e instanceof Error ? e.message : String(e) }))
      .finally(() => {
        this.running = null;
        if (this.stopped) return;
        if (this.again) {
          this.again = false;
          this.kick();
        } else {
          this.timer = setTimeout(() => this.kick(), this.opts.pollMs);
          this.timer.unref?.();
        }
      });
  }

  private async drain() {
    while (!this.stopped && (await this.runOnce()) > 0);
  }

  /** Claims one batch of due items and carries them out; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const items = await this.storage.outbox.claim({
      workerId: this.workerId,
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.opts.leaseMs).toISOString(),
      limit: this.opts.batchSize,
      kinds: [...this.handlers.keys()],
    });
    const outcomes = await Promise.all(items.map((item) => this.run(item)));
    if (items.length) await this.settleAll(items, outcomes);
    return items.length;
  }

  private async run(item: OutboxItem): Promise<OutboxOutcome> {
    try {
      return await this.handlers.get(item.kind)!.handle(item);
    } catch (e) {
      return failedAttempt(this.clock.now(), item.attempts, errorText(e));
    }
  }

  private async settleAll(items: OutboxItem[], outcomes: OutboxOutcome[]) {
    const now = this.clock.now().toISOString();
    await this.storage.transaction(async (tx) => {
      for (const [i, item] of items.entries()) {
        const outcome = outcomes[i]!;
        await outcome.record?.(tx);
        const settlement =
          outcome.status === 'pending'
            ? ({ status: 'pending', nextAttemptAt: outcome.nextAttemptAt, error: outcome.error } as const)
            : ({ status: outcome.status, error: outcome.status === 'failed' ? outcome.error : null } as const);
        await tx.outbox.settle(item.id, this.workerId, settlement, now);
      }
    });
  }
}
