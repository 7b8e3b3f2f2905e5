import { z } from 'zod';
import { named } from '../api-schemas';
import { emailAddress } from '../email-address';
import { PASSWORD_MAX, PASSWORD_MIN } from './secrets';

/* Request and answer bodies of sign-in and the account (docs/accounts.md); the Express routes document them. */

// The API's one address rule (email-address.ts): sign-up refuses what every other email field refuses.
const email = emailAddress();
const password = z.string().min(PASSWORD_MIN).max(PASSWORD_MAX);
const name = z.string().trim().max(100).nullable().optional();
const token = z.string().max(200);

export const signUpSchema = z.object({
  email,
  password,
  first_name: name,
  last_name: name,
  invitation_token: z.string().max(200).optional(),
});
export const signInSchema = z.object({ email: z.string().max(320), password: z.string().max(1000) });
export const emailOnlySchema = z.object({ email: z.string().max(320) });
export const tokenSchema = z.object({ token });
export const resetCompleteSchema = z.object({ token, password });
/** The mailed sign-up link's token and the password chosen at sign-up, typed again (docs/accounts.md). */
export const signUpFinishSchema = z.object({ token, password: z.string().max(1000) });
export const profilePatchSchema = z.object({ first_name: name, last_name: name });
export const passwordChangeSchema = z.object({ current_password: z.string().max(1000), new_password: password });
export const apiKeyCreateSchema = z.object({
  name: z.string().trim().max(100).nullable().optional(),
  scope: z.enum(['forms', 'voice']),
  monthly_limit: z.number().int().min(1).nullable().optional(),
});
export const passkeyOptionsSchema = z.object({}).passthrough();
export const passkeyFinishSchema = z.object({
  challenge_id: token,
  response: z.object({ id: z.string().max(1024) }).passthrough(),
  name: z.string().trim().max(100).optional(),
});

export const userOut = named('AccountUser', z
  .object({
    id: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    plan: z.string(),
    email_verified: z.boolean(),
    created_at: z.string(),
  }));
export const signedInOut = named('SignedIn', z.object({ user: userOut, csrf_token: z.string() }));
export const signedUpOut = signedInOut.extend({
  /** With `invitation_token`: the membership the accepted invitation made (`{id, team_id, user_id, role, joined_at, team}`). */
  invitation: z.record(z.string(), z.unknown()).optional(),
});
export const sessionOut = z.object({
  user: userOut,
  csrf_token: z.string(),
  session: z.object({ id: z.string(), created_at: z.string(), expires_at: z.string() }),
});
export const authConfigOut = z.object({
  signup: z.enum(['open', 'invite', 'closed']),
  has_users: z.boolean(),
  passkeys: z.boolean(),
  email_links: z.boolean(),
});
export const sentOut = z.object({ sent: z.literal(true) });
export const verifiedOut = z.object({ user: userOut });
export const csrfOut = z.object({ csrf_token: z.string() });
export const accountOut = named('Account', z.object({ user: userOut, is_admin: z.boolean() }));
export const sessionListOut = z.object({
  sessions: z.array(
    z.object({
      id: z.string(),
      created_at: z.string(),
      last_seen_at: z.string(),
      expires_at: z.string(),
      user_agent: z.string().nullable(),
      ip_address: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
});
const apiKeyOut = z.object({
  key_id: z.string(),
  name: z.string().nullable(),
  scope: z.enum(['forms', 'voice']),
  monthly_limit: z.number().int().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
  expires_at: z.string().nullable(),
});
export const apiKeyListOut = z.object({ api_keys: z.array(apiKeyOut) });
export const apiKeyCreatedOut = z.object({
  key_id: z.string(),
  api_key: z.string(),
  name: z.string().nullable(),
  scope: z.enum(['forms', 'voice']),
  monthly_limit: z.number().int().nullable(),
  created_at: z.string(),
});
export const passkeyOut = named('Passkey', z.object({ id: z.string(), name: z.string(), created_at: z.string(), last_used_at: z.string().nullable() }));
export const passkeyListOut = z.object({ passkeys: z.array(passkeyOut) });
export const passkeyOptionsOut = z.object({ challenge_id: z.string(), options: z.record(z.string(), z.unknown()) });
