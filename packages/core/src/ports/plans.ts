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
  /** The features of the user's plan. Throws NOT_FOUND for an unknown user. */
  featuresFor(userId: string): Promise<PlanFeatures>;
}
