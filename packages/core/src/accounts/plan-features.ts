import type { PlanName } from '../domain/types';
import type { PlanFeatures } from '../ports/plans';

const paid = { webhooks: true, contracts: true, booking: true, data_nodes: true, payment_connect: true, auto_translate: true };
const unpaid = { webhooks: false, contracts: false, booking: false, data_nodes: false, payment_connect: false, auto_translate: false };

/** The default plan table (docs/decisions.md, "Plans"). */
export const DEFAULT_PLAN_FEATURES: Record<PlanName, PlanFeatures> = {
  free: { plan: 'free', ...unpaid, audit_logs: false, seats: 3 },
  pro: { plan: 'pro', ...paid, audit_logs: false, seats: 10 },
  business: { plan: 'business', ...paid, audit_logs: false, seats: 50 },
  enterprise: { plan: 'enterprise', ...paid, audit_logs: true, seats: null },
};
