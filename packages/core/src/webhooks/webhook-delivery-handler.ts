import { allSettledOrThrow } from '../errors';
import { inject, injectable } from 'tsyringe';
import type { OutboxItem, WebhookDelivery } from '../domain/types';
import type { Clock } from '../ports/clock';
import { type IdGenerator, orderedId } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { isDestinationRefused, type WebhookTransport } from '../ports/webhook-transport';
import type { FormloomConfig } from '../config';
import { TOKENS } from '../tokens';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import { errorText, failedAttempt } from '../outbox/retry';
import { WebhookSettingsService } from './webhook-settings-service';
import { signatureHeaders } from './standard-webhooks';
import { BORN_WITH } from './webhook-dispatcher';

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** Characters of the receiver's answer the delivery log keeps per attempt (docs/responses-and-webhooks.md). */
export const RESPONSE_EXCERPT_CHARS = 500;

/**
 * The log's excerpt of a response body: at most RESPONSE_EXCERPT_CHARS characters, never a half of a
 * surrogate pair; null when empty.
 */
export function responseExcerpt(body: string | undefined): string | null {
  if (!body) return null;
  let text = body.length > RESPONSE_EXCERPT_CHARS ? body.slice(0, RESPONSE_EXCERPT_CHARS) : body;
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1);
  return text || null;
}

/** `host[:port]` of a URL, lower-case; the URL itself when it does not parse. */
export function destinationHost(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

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

  /** The receiver's host: the worker runs a few deliveries per host at once (docs/responses-and-webhooks.md). */
  async destination(item: OutboxItem): Promise<string | null> {
    let url = item.payload.url;
    if (typeof url !== 'string') url = (await this.storage.deliveries.findById(String(item.payload.delivery_id)))?.url;
    return typeof url === 'string' ? destinationHost(url) : null;
  }

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const born = item.payload[BORN_WITH] as WebhookDelivery | undefined;
    const delivery = born ?? (await this.storage.deliveries.findById(String(item.payload.delivery_id)));
    if (!delivery) return { status: 'failed', error: 'delivery deleted' };
    const secret = await this.settings.secretOf(delivery.user_id);
    const started = Date.now();
    let status: number | null = null;
    let excerpt: string | null = null;
    let error: string | null = null;
    let refused = false;
    try {
      const headers = {
        'Content-Type': 'application/json',
        // Signed at each attempt: a retry carries a fresh timestamp under the same webhook-id.
        ...signatureHeaders(secret, delivery.id, Math.floor(this.clock.now().getTime() / 1000), delivery.body),
        'X-Service-Event': delivery.event,
        'X-Service-Delivery': delivery.id,
      };
      const answer = await this.transport.post(delivery.url, delivery.body, headers, this.config.webhookTimeoutMs);
      status = answer.status;
      excerpt = responseExcerpt(answer.body);
    } catch (e) {
      error = errorText(e);
      // A refused destination (private address, bad scheme) will be refused again: fail now, with why.
      refused = isDestinationRefused(e);
    }
    const duration = Date.now() - started;
    const attempts = delivery.attempts + 1;
    const now = this.clock.now();
    const ok = status !== null && status >= 200 && status < 300;
    if (!ok && !error) error = status !== null && status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
    const outcome: OutboxOutcome = ok
      ? { status: 'delivered' }
      : failedAttempt(now, attempts, error!, { retry: !refused && (status === null || retryable(status)) });
    const next = outcome.status === 'pending' ? outcome.nextAttemptAt : null;
    const attempt = {
      id: orderedId(this.ids, 'wha'),
      delivery_id: delivery.id,
      attempt: attempts,
      status_code: status,
      duration_ms: duration,
      error,
      response_excerpt: excerpt,
      created_at: now.toISOString(),
    };
    const patch = {
      status: outcome.status,
      attempts,
      last_status_code: status,
      last_duration_ms: duration,
      last_error: ok ? null : error,
      last_response_excerpt: excerpt,
      next_attempt_at: next,
      updated_at: now.toISOString(),
    } as const;
    const record = async (tx: Storage) => {
      await allSettledOrThrow([tx.deliveries.insertAttempt(attempt), tx.deliveries.update(delivery.id, patch)]);
    };
    return { ...outcome, record };
  }
}
