import { createHmac } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { OutboxItem } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import type { WebhookTransport } from '../ports/webhook-transport';
import type { FormloomConfig } from '../config';
import type { FormloomEvents } from '../events';
import { TOKENS } from '../tokens';
import { WebhookSettingsService } from './webhook-settings-service';

/** Seconds before each retry: about a day in all, then the delivery fails for good. */
export const RETRY_DELAYS_S = [10, 30, 60, 120, 300, 600, 1800, 3600, 7200, 14400, 28800, 28800];

export interface WorkerOptions {
  /** How often to look for due deliveries when not woken by a submission (ms). */
  pollMs?: number;
  /** How long a claimed item stays leased to this worker; a crashed worker's items return after it (ms). */
  leaseMs?: number;
  batchSize?: number;
}

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** `x ± 20%`, so that retries from many deliveries do not arrive in lockstep. */
const jitter = (seconds: number) => seconds * (0.8 + Math.random() * 0.4);

/**
 * Delivers webhook outbox items: claims due items with a lease (one worker per item, across instances),
 * signs the stored body with the account's current secret, records every attempt, and retries with
 * exponential backoff. Nothing runs until `start()`.
 */
@injectable()
export class DeliveryWorker {
  readonly workerId: string;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = true;
  private opts: Required<WorkerOptions> = { pollMs: 500, leaseMs: 60_000, batchSize: 20 };
  private readonly wake = () => this.kick();

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.WebhookTransport) private readonly transport: WebhookTransport,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(WebhookSettingsService) private readonly settings: WebhookSettingsService,
  ) {
    this.workerId = ids.id('wrk');
  }

  start(options: WorkerOptions = {}) {
    if (!this.stopped) return;
    this.opts = { ...this.opts, ...options };
    this.stopped = false;
    this.events.on('response.submitted', this.wake);
    this.kick();
  }

  /** Stops polling and waits for the attempts under way. */
  async stop() {
    this.stopped = true;
    this.events.off('response.submitted', this.wake);
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
      .catch((e) => console.error('webhook worker', e))
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

  /** Claims one batch of due items and attempts them; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const now = this.clock.now();
    const items = await this.storage.outbox.claim({
      workerId: this.workerId,
      now: now.toISOString(),
      leaseUntil: new Date(now.getTime() + this.opts.leaseMs).toISOString(),
      limit: this.opts.batchSize,
      kinds: ['webhook'],
    });
    await Promise.all(items.map((item) => this.attempt(item)));
    return items.length;
  }

  private async attempt(item: OutboxItem) {
    const delivery = await this.storage.deliveries.findById(String(item.payload.delivery_id));
    if (!delivery) {
      await this.storage.outbox.settle(item.id, this.workerId, { status: 'failed', error: 'delivery deleted' }, this.clock.now().toISOString());
      return;
    }
    const secret = await this.settings.secretOf(delivery.user_id);
    const signature = createHmac('sha256', secret).update(delivery.body).digest('hex');
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      status = (
        await this.transport.post(
          delivery.url,
          delivery.body,
          { 'Content-Type': 'application/json', 'X-Service-Signature': signature, 'X-Service-Event': delivery.event, 'X-Service-Delivery': delivery.id },
          this.config.webhookTimeoutMs,
        )
      ).status;
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
    }
    const duration = Date.now() - started;
    const attempts = delivery.attempts + 1;
    const now = this.clock.now();
    const ok = status !== null && status >= 200 && status < 300;
    const again = !ok && (status === null || retryable(status)) && attempts <= RETRY_DELAYS_S.length;
    const next = again ? new Date(now.getTime() + jitter(RETRY_DELAYS_S[attempts - 1]!) * 1000).toISOString() : null;
    if (!ok && !error) error = `HTTP ${status}`;
    await this.storage.deliveries.insertAttempt({
      id: this.ids.id('wha'),
      delivery_id: delivery.id,
      attempt: attempts,
      status_code: status,
      duration_ms: duration,
      error,
      created_at: now.toISOString(),
    });
    await this.storage.deliveries.update(delivery.id, {
      status: ok ? 'delivered' : again ? 'pending' : 'failed',
      attempts,
      last_status_code: status,
      last_duration_ms: duration,
      last_error: ok ? null : error,
      next_attempt_at: next,
      updated_at: now.toISOString(),
    });
    await this.storage.outbox.settle(
      item.id,
      this.workerId,
      ok ? { status: 'delivered' } : again ? { status: 'pending', nextAttemptAt: next!, error } : { status: 'failed', error },
      now.toISOString(),
    );
  }
}
