import { randomBytes } from 'node:crypto';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Payments } from '../ports/payments';
import type { PlanFeatures, Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { DEFAULT_PLAN_FEATURES } from './plan-features';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const systemClock = (): Clock => ({ now: () => new Date() });

/** Random ids: `<prefix>_` + 20 base62 characters (~119 bits). */
export function randomIds(): IdGenerator {
  return {
    id(prefix) {
      const bytes = randomBytes(20);
      let s = '';
      for (const b of bytes) s += ALPHABET[b % 62];
      return `${prefix}_${s}`;
    },
    secret: (n) => randomBytes(n).toString('hex'),
  };
}

/** Plans read from the plan stored on the user; unknown users (e.g. a host's own) are on `free`. */
export function storedPlans(storage: Storage, table: Record<string, PlanFeatures> = DEFAULT_PLAN_FEATURES): Plans {
  return {
    async featuresFor(userId) {
      const user = await storage.users.findById(userId);
      return table[user?.plan ?? 'free'] ?? table.free!;
    },
  };
}

/** Purchases recorded straight into the credit balance (operator-run, no payment processor). */
export function localPayments(storage: Storage): Payments {
  return { purchaseCredits: (userId, credits) => storage.credits.add(userId, credits) };
}
