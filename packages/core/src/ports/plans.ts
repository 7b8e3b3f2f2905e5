import type { PlanName } from '../domain/types';

/** What a plan includes (docs/decisions.md, "Plans"). */
export interface PlanFeatures {
  plan: PlanName;
  webhooks: boolean;
  contracts: boolean;
  booking: boolean;
  data_nodes: boolean;
  payment_connect: boolean;
  auto_translate: boolean;
  audit_logs: boolean;
  /** Team seats (members plus pending invitations); `null` is unlimited. */
  seats: number | null;
}

/** Resolves a user's plan and features. */
export interface Plans {
  /**
   * The features of the user's plan. A user the provider does not know (for example a host's own user
   * that has no stored plan yet) gets the `free` plan's features; it never throws for an unknown user
   * (docs/decisions.md, "Plans"). Rejects only when the provider itself fails.
   */
  featuresFor(userId: string): Promise<PlanFeatures>;
  /**
   * True when `featuresFor` answers from the plan stored on the user (as `storedPlans` does), which the cache
   * revision covers: instances may then keep what depends on it (a form's webhook targets) while the revision
   * holds. A provider that answers from elsewhere leaves it unset, and is asked every time.
   */
  readonly fromStoredPlan?: boolean;
}
