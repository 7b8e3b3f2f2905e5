import { createHmac } from 'node:crypto';

/*
 * Delivery signatures (docs/responses-and-webhooks.md "Verifying a delivery"). Two schemes sign every
 * delivery with the account's one secret:
 * - the original API's `X-Service-Signature`: hex HMAC-SHA256 of the body, keyed by the secret's text;
 * - Standard Webhooks (standardwebhooks.com): `webhook-id`, `webhook-timestamp` (Unix seconds, set at each
 *   attempt) and `webhook-signature` = `v1,` + base64 HMAC-SHA256 of `id.timestamp.body`, keyed by the
 *   secret read as base64, which is how every Standard Webhooks library reads a secret. Our secrets are 64
 *   hex characters, all of them base64 characters: a receiver passes the secret to such a library as it is.
 * The timestamp under the signature lets a receiver refuse a replayed delivery (the libraries allow 5
 * minutes of difference); the id stays the same across retries, so it also deduplicates.
 */

/** Headers of one delivery attempt; `timestampS` is the attempt's time in Unix seconds. */
export function signatureHeaders(secret: string, deliveryId: string, timestampS: number, body: string): Record<string, string> {
  const spec = createHmac('sha256', secret).update(body).digest('hex');
  const standard = createHmac('sha256', Buffer.from(secret, 'base64')).update(`${deliveryId}.${timestampS}.${body}`).digest('base64');
  return {
    'X-Service-Signature': spec,
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestampS),
    'webhook-signature': `v1,${standard}`,
  };
}
