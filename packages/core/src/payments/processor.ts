import { FormloomError } from '../errors';
import { PaymentProcessorError, type PaymentProcessor, type Payments } from '../ports/payments';

/** The configured processor, or 409 `payments_not_configured` (docs/payments.md, "Configuration"). */
export function processorOf(payments: Payments): PaymentProcessor {
  if (!payments.processor) {
    throw new FormloomError('CONFLICT', 'Payments are not configured on this server (FORMLOOM_STRIPE_SECRET_KEY and the others, docs/payments.md)', {
      reason: 'payments_not_configured',
    });
  }
  return payments.processor;
}

/**
 * A processor's refusal as a 409 whose message is the processor's (written for the account owner, no secrets):
 * `reason` `processor_refused`. Anything else (its network, its outage) stays a 500 the client retries.
 */
export async function atProcessor<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (e instanceof PaymentProcessorError) throw new FormloomError('CONFLICT', e.message, { reason: 'processor_refused', ...(e.code ? { processor_code: e.code } : {}) });
    throw e;
  }
}

/** An absolute URL on the instance for a path the caller gave (a relative path only: never another site). */
export function returnUrl(publicUrl: string, path: string | undefined, fallback: string): string {
  const p = path && path.startsWith('/') && !path.startsWith('//') ? path : fallback;
  return `${publicUrl.replace(/\/+$/, '')}${p}`;
}
