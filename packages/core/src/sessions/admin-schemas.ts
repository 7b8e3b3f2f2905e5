import { z } from 'zod';
import { named } from '../api-schemas';
import { PLAN_NAMES } from '../domain/types';

/* Request and answer bodies of the instance admin's area (docs/accounts.md, "The admin area"). */

const planName = z.enum(PLAN_NAMES as unknown as [string, ...string[]]);

export const adminPeopleQuery = z.object({
  q: z.string().trim().max(200).optional(),
  plan: planName.optional(),
  verified: z.enum(['true', 'false']).optional(),
  admin: z.enum(['true', 'false']).optional(),
  offset: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(200).optional(),
});
export const adminPlanSchema = z.object({ plan: planName });
export const adminCreditsSchema = z.object({ credits: z.number().int().min(1).max(100_000_000) });

export const adminPersonOut = named('AdminPerson', z.object({
  user_id: z.string(),
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  plan: z.string(),
  email_verified: z.boolean(),
  created_at: z.string(),
  is_admin: z.boolean(),
}));
export const adminPeopleOut = z.object({ people: z.array(adminPersonOut), total: z.number().int() });
export const adminPersonDetailOut = z.object({
  person: adminPersonOut,
  credits: z.number().int(),
  api_keys: z.array(z.object({
    key_id: z.string(),
    scope: z.enum(['forms', 'voice']),
    monthly_limit: z.number().int().nullable(),
    created_at: z.string(),
    revoked_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    made_by: z.string(),
  })),
});
export const adminCreditsOut = z.object({ user_id: z.string(), credits: z.number().int() });
export const adminStuckOut = z.object({
  items: z.array(z.object({
    id: z.string(),
    kind: z.string(),
    status: z.string(),
    attempts: z.number().int(),
    next_attempt_at: z.string().nullable(),
    last_error: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })),
});
