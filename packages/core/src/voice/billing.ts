import { inject, injectable } from 'tsyringe';
import { FormloomError, forbidden } from '../errors';
import type { Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';

/** The first instant of the UTC month of `now`: monthly key limits count from here. */
export const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();

/** Who may generate speech, and the charges: spend once per generation, credit back on failure. */
@injectable()
export class VoiceBilling {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Plans) private readonly plans: Plans,
  ) {}

  /**
   * Voice works once the account has bought credits (or is on a paid plan) and has verified its email
   * (docs/voice.md, "Billing"). 403 `voice_not_enabled` otherwise.
   */
  async assertEnabled(principal: Principal): Promise<void> {
    const user = await this.storage.users.findById(principal.user_id);
    const paid = (await this.plans.featuresFor(principal.user_id)).plan !== 'free';
    const bought = paid || (await this.storage.credits.entries(principal.user_id)).some((e) => e.kind === 'purchase');
    if (!user?.email_verified || !bought) {
      throw forbidden('Voice is enabled once the account has verified its email and bought credits (or is on a paid plan)', {
        reason: 'voice_not_enabled',
      });
    }
  }

  balance(userId: string): Promise<number> {
    return this.storage.credits.balance(userId);
  }

  /** A page of the user's ledger, newest first (`GET /voice/credits`, docs/voice.md "Credits and the ledger"). */
  ledger(userId: string, page: { limit: number; offset: number }) {
    return this.storage.credits.entryPage(userId, page);
  }

  /** The key's monthly limit and what it has left this month; null when the key has no limit. */
  async keyAllowance(principal: Principal): Promise<{ limit: number; left: number } | null> {
    if (!principal.key_id) return null;
    const key = await this.storage.apiKeys.findById(principal.key_id);
    if (!key?.monthly_limit) return null;
    const spent = await this.storage.credits.keySpent(key.id, monthStart(this.clock.now()));
    return { limit: key.monthly_limit, left: Math.max(0, key.monthly_limit - spent) };
  }

  /** What an estimate of `credits` tells: the balance, and whether it and the key's monthly limit cover them. */
  async quote(principal: Principal, credits: number): Promise<{ balance: number; enough: boolean }> {
    const balance = await this.balance(principal.user_id);
    const allowance = await this.keyAllowance(principal);
    return { balance, enough: balance >= credits && (!allowance || allowance.left >= credits) };
  }

  /** Takes `amount` for `generationId` (once); 402 when the balance or the key's monthly limit is short. */
  async charge(principal: Principal, generationId: string, amount: number): Promise<number> {
    const key = principal.key_id ? await this.storage.apiKeys.findById(principal.key_id) : null;
    const now = this.clock.now();
    const outcome = await this.storage.credits.spendFor({
      id: this.ids.id('cre'),
      user_id: principal.user_id,
      key_id: principal.key_id,
      generation_id: generationId,
      amount,
      created_at: now.toISOString(),
      key_limit: key?.monthly_limit ? { limit: key.monthly_limit, since: monthStart(now) } : null,
    });
    if (outcome.ok) return outcome.balance;
    if (outcome.reason === 'key_limit') {
      throw new FormloomError('KEY_LIMIT_REACHED', "This request would exceed the key's monthly spending limit", {
        credits_required: amount,
        monthly_limit: key?.monthly_limit ?? null,
      });
    }
    if (outcome.reason === 'insufficient') {
      throw new FormloomError('INSUFFICIENT_CREDITS', `This request costs ${amount} credits; the balance is ${outcome.balance}`, {
        credits_required: amount,
        balance: outcome.balance,
      });
    }
    return outcome.balance; // duplicate: already charged for this generation
  }

  /** Gives the generation's charge back (at most once); the balance afterwards. */
  async creditBack(userId: string, generationId: string): Promise<number> {
    const at = this.clock.now().toISOString();
    return (await this.storage.credits.creditBack(generationId, { id: this.ids.id('cre'), created_at: at })) ?? this.balance(userId);
  }
}
