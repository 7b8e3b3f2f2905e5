import { type Api, call } from './client';

/* Payments (docs/payments.md): the owner's own Stripe account (Connect) for payment questions paid into it. */

export interface PaymentAccount {
  configured: boolean;
  connected: boolean;
  account_id: string | null;
  charges_enabled: boolean;
  connect_allowed: boolean;
}

export const getPaymentAccount = (api: Api) => call(api.client.GET('/payments/account')) as Promise<PaymentAccount>;

/** A one-time link to Stripe's onboarding; Stripe sends the owner back to `returnPath`. */
export const startPaymentOnboarding = (api: Api, returnPath: string) =>
  call(api.client.POST('/payments/account/onboarding', { body: { return_path: returnPath } })) as Promise<{ url: string }>;
