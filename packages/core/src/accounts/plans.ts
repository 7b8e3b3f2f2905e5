import type { Payments } from '../ports/payments';
import type { PlanFeatures, Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { DEFAULT_PLAN_FEATURES } from './plan-features';

/** Plans read from the plan stored on the user; a user the storage does not know (a host's own) is on `free`. */
export function storedPlans(storage: Storage, table: Record<string, PlanFeatures> = DEFAULT_PLAN_FEATURES): Plans {
  return {
    fromStoredPlan: true,
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
