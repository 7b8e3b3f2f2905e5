import { z } from 'zod';
import { documentAs, int, named, pageOf, timestamp } from '../api-schemas';

/** What the webhook settings service answers (webhook-settings-service.ts). */

export const formWebhookOut = named('FormWebhook', z.object({ webhook_url: z.string().nullable() }));

export const globalWebhookOut = named('GlobalWebhook', z.object({ url: z.string(), enabled: z.boolean() }));

export const globalWebhooksOut = named('GlobalWebhookList', z.object({ webhooks: z.array(globalWebhookOut) }));

export const webhookSecretOut = named('WebhookSecret', z.object({ secret: z.string().describe('Signs every delivery (X-Service-Signature, HMAC-SHA256 of the body)') }));

/**
 * The events a webhook delivers (docs/responses-and-webhooks.md; `booking.call_completed`: docs/booking.md), each
 * one the code sends through the delivery log: the log's `event` is checked against this list.
 */
export const WEBHOOK_EVENTS = ['response.submitted', 'response.deleted', 'booking.call_completed', 'webhook.test'] as const;

export const deliveryStatus = z.enum(['pending', 'delivered', 'failed']);

export const deliveryOut = named(
  'WebhookDelivery',
  z.object({
    id: z.string(),
    response_id: z.string().nullable(),
    url: z.string(),
    event: z.enum(WEBHOOK_EVENTS),
    status: deliveryStatus,
    attempts: int,
    response_code: int.nullable(),
    duration_ms: int.nullable(),
    error: z.string().nullable(),
    response_excerpt: z
      .string()
      .nullable()
      .describe("The start of the receiver's answer to the last attempt (at most 500 characters); null before an answer or without one"),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const deliveryListOut = named('WebhookDeliveryList', pageOf('deliveries', deliveryOut));

export const deliveryRetryOut = named('WebhookDeliveryRetry', z.object({ id: z.string(), status: z.literal('pending'), next_attempt_at: timestamp }));

export const webhookTestOut = named(
  'WebhookTest',
  z.object({
    deliveries: z.array(z.object({ id: z.string(), url: z.string(), status: z.literal('pending') })).describe('One test delivery per current target, in the delivery log'),
  }),
);
