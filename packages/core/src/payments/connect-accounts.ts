import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { FormloomConfig } from '../config';
import type { Principal } from '../domain/types';
import { FormloomError } from '../errors';
import type { Clock } from '../ports/clock';
import type { Payments } from '../ports/payments';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { atProcessor, processorOf, returnUrl } from './processor';

export const paymentAccountOut = z.object({
  /** Whether this server takes payments at all (a processor is configured). */
  configured: z.boolean(),
  /** Whether the caller has a connected account (Stripe Connect) for `provider: "connect"` payment questions. */
  connected: z.boolean(),
  account_id: z.string().nullable(),
  /** True once onboarding is finished and the account can take payments. */
  charges_enabled: z.boolean(),
  /** Whether the caller's plan includes payments into their own account (Pro or higher). */
  connect_allowed: z.boolean(),
});

export const onboardingSchema = z
  .object({ return_path: z.string().max(500).regex(/^\/(?!\/)/, 'a path on this server, starting with /').optional() })
  .strict();
export const onboardingOut = z.object({ url: z.string() });

/**
 * Owners' own accounts for `provider: "connect"` payment questions (docs/payments.md, "Connect"): an Express account
 * made at the processor on first onboarding, a one-time onboarding link each time, and its state refreshed from the
 * processor (and from its `account.updated` events).
 */
@injectable()
export class ConnectAccounts {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Payments) private readonly payments: Payments,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
  ) {}

  async status(principal: Principal): Promise<z.infer<typeof paymentAccountOut>> {
    const connect_allowed = (await this.plans.featuresFor(principal.user_id)).payment_connect;
    let account = await this.storage.payments.accountOf(principal.user_id);
    const processor = this.payments.processor;
    if (account && processor && !account.charges_enabled) {
      // Back from onboarding before the processor's event arrived: ask it.
      const fresh = await atProcessor(() => processor.retrieveConnectedAccount(account!.account_id));
      if (fresh.charges_enabled) {
        account = { ...account, charges_enabled: true, updated_at: this.clock.now().toISOString() };
        await this.storage.payments.putAccount(account);
      }
    }
    return { configured: !!processor, connected: !!account, account_id: account?.account_id ?? null, charges_enabled: account?.charges_enabled ?? false, connect_allowed };
  }

  async onboard(principal: Principal, body: z.infer<typeof onboardingSchema>): Promise<z.infer<typeof onboardingOut>> {
    const processor = processorOf(this.payments);
    if (!(await this.plans.featuresFor(principal.user_id)).payment_connect) {
      throw new FormloomError('FORBIDDEN', "Payments into your own account need the Pro plan or higher; use the standard payment option", {
        reason: 'payment_connect_requires_pro',
        upgrade_required: true,
      });
    }
    let account = await this.storage.payments.accountOf(principal.user_id);
    if (!account) {
      const user = await this.storage.users.findById(principal.user_id);
      const made = await atProcessor(() => processor.createConnectedAccount({ ...(user?.email ? { email: user.email } : {}), idempotency_key: `connect-${principal.user_id}` }));
      const now = this.clock.now().toISOString();
      account = { user_id: principal.user_id, account_id: made.id, charges_enabled: made.charges_enabled, created_at: now, updated_at: now };
      await this.storage.payments.putAccount(account);
    }
    const back = returnUrl(this.config.publicUrl, body.return_path, '/account');
    const link = await atProcessor(() => processor.createOnboardingLink({ account: account!.account_id, refresh_url: back, return_url: back }));
    return { url: link.url };
  }
}
