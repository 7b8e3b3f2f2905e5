import type { PlanName } from '../domain/types';

/** What a plan includes (DESIGN.md section 5). */
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
   * The features of the user's plan as it is now (a plan change shows on the next call). A user the
   * provider does not know (e.g. a host's own user) gets the `free` plan's features; it never throws for
   * one. The result is the provider's: callers do not change it.
   */
  featuresFor(userId: string): Promise<PlanFeatures>;
}
