import { createHmac } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import type { OutboxItem } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import type { WebhookTransport } from '../ports/webhook-transport';
import type { FormloomConfig } from '../config';
import { TOKENS } from '../tokens';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import { errorText, failedAttempt } from '../outbox/retry';
import { WebhookSettingsService } from './webhook-settings-service';

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/**
 * Sends one webhook delivery: signs the stored body with the account's current secret, records the
 * attempt, and retries network errors, time-outs, 408, 429 and 5xx; other answers are final.
 */
@injectable()
export class WebhookDeliveryHandler implements OutboxHandler {
  readonly kind = 'webhook';

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.WebhookTransport) private readonly transport: WebhookTransport,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(WebhookSettingsService) private readonly settings: WebhookSettingsService,
  ) {}

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const delivery = await this.storage.deliveries.findById(String(item.payload.delivery_id));
    if (!delivery) return { status: 'failed', error: 'delivery deleted' };
    const secret = await this.settings.secretOf(delivery.user_id);
    const signature = createHmac('sha256', secret).update(delivery.body).digest('hex');
    const started = Date.now();
    let status: number | null = null;
    let error: string | null = null;
    try {
      const headers = {
        'Content-Type': 'application/json',
        'X-Service-Signature': signature,
        'X-Service-Event': delivery.event,
        'X-Service-Delivery': delivery.id,
      };
      status = (await this.transport.post(delivery.url, delivery.body, headers, this.config.webhookTimeoutMs)).status;
    } catch (e) {
      error = errorText(e);
    }
    const duration = Date.now() - started;
    const attempts = delivery.attempts + 1;
    const now = this.clock.now();
    const ok = status !== null && status >= 200 && status < 300;
    if (!ok && !error) error = `HTTP ${status}`;
    const outcome: OutboxOutcome = ok
      ? { status: 'delivered' }
      : failedAttempt(now, attempts, error!, { retry: status === null || retryable(status) });
    const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
    const attempt = {
      id: this.ids.id('wha'),
      delivery_id: delivery.id,
      attempt: attempts,
      status_code: status,
      duration_ms: duration,
      error,
      created_at: now.toISOString(),
    };
    const patch = {
      status: outcome.status,
      attempts,
      last_status_code: status,
      last_duration_ms: duration,
      last_error: ok ? null : error,
      next_attempt_at: next,
      updated_at: now.toISOString(),
    } as const;
    const record = async (tx: Storage) => {
      await tx.deliveries.insertAttempt(attempt);
      await tx.deliveries.update(delivery.id, patch);
    };
    return { ...outcome, record };
  }
}
