import type { EntitySchema } from 'typeorm';
import type { Scope } from '../scope';
import { tableOf } from '../sql/statements';
import { ApiKeyEntity, UserEntity } from '../tables/accounts';
import { CreditBalanceEntity, CreditEntryEntity } from '../tables/credits';
import { CreditCheckoutEntity, PaymentAccountEntity } from '../tables/payments';
import { CalendarConnectionEntity } from '../tables/bookings';
import { InstanceClaimEntity, OneTimeTokenEntity, PasskeyEntity, PasswordEntity, SignInSessionEntity } from '../tables/sign-in';
import { TeamMemberEntity } from '../tables/teams';
import { InvitationEntity } from '../tables/invitations';
import { AuditLogEntity } from '../tables/audit-logs';
import { VoiceGenerationEntity, VoiceRetakeEntity } from '../tables/voice';
import { GlobalWebhookEntity, WebhookSecretEntity } from '../tables/webhooks';

/*
 * Deleting a person's account (docs/accounts.md, "Deleting an account"): every row keyed by them, and those naming
 * their address: invitations to it, and one-time tokens made before the account was (a sign-up's, holding the
 * address, name and password hash). Their forms and teams go first, through the services (uploads, audit
 * entries); audit events they made stay, naming their id only: the address they carried is removed.
 */

/** The tables holding rows of one person, by the column naming them; the user row last. */
const BY_USER: Array<[EntitySchema<any>, string]> = [
  [ApiKeyEntity, 'user_id'],
  [PasswordEntity, 'user_id'],
  [SignInSessionEntity, 'user_id'],
  [OneTimeTokenEntity, 'user_id'],
  [PasskeyEntity, 'user_id'],
  [GlobalWebhookEntity, 'user_id'],
  [WebhookSecretEntity, 'user_id'],
  [CreditEntryEntity, 'user_id'],
  [CreditBalanceEntity, 'user_id'],
  [CreditCheckoutEntity, 'user_id'],
  [PaymentAccountEntity, 'user_id'],
  [CalendarConnectionEntity, 'user_id'],
  [TeamMemberEntity, 'user_id'],
  [InstanceClaimEntity, 'user_id'],
];

/**
 * Deletes the person's rows in one transaction and returns the ids of their voice generations, whose audio the
 * caller deletes from the blob store after the commit. `false` when there was no such person.
 */
export async function deleteAccountRows(scope: Scope, userId: string): Promise<{ deleted: boolean; generation_ids: string[] }> {
  return scope.atomic(async (db) => {
    const d = scope.d;
    const generations = tableOf(d, VoiceGenerationEntity);
    const ids = (await db.all<{ id: string }>(`SELECT id FROM ${generations} WHERE user_id = ${d.p(1)}`, [userId])).map((r) => r.id);
    if (ids.length) {
      await db.run(`DELETE FROM ${tableOf(d, VoiceRetakeEntity)} WHERE generation_id IN (SELECT id FROM ${generations} WHERE user_id = ${d.p(1)})`, [userId]);
      await db.run(`DELETE FROM ${generations} WHERE user_id = ${d.p(1)}`, [userId]);
    }
    const [user] = await db.all<{ email: string }>(`SELECT email FROM ${tableOf(d, UserEntity)} WHERE id = ${d.p(1)}`, [userId]);
    if (user) {
      const email = user.email.toLowerCase();
      await db.run(`DELETE FROM ${tableOf(d, InvitationEntity)} WHERE email = ${d.p(1)}`, [email]);
      // Tokens without a user are short-lived (a day at most) and few: their JSON is read here rather than matched
      // in SQL, where an address's `_` would be a LIKE wildcard.
      const tokens = tableOf(d, OneTimeTokenEntity);
      for (const t of await db.all<{ id: string; data: string | null }>(`SELECT id, data FROM ${tokens} WHERE user_id IS NULL AND data IS NOT NULL`, [])) {
        if (tokenEmail(t.data) === email) await db.run(`DELETE FROM ${tokens} WHERE id = ${d.p(1)}`, [t.id]);
      }
      await db.run(`UPDATE ${tableOf(d, AuditLogEntity)} SET user_email = NULL WHERE user_id = ${d.p(1)}`, [userId]);
    }
    for (const [entity, column] of BY_USER) await db.run(`DELETE FROM ${tableOf(d, entity)} WHERE ${column} = ${d.p(1)}`, [userId]);
    const gone = await db.run(`DELETE FROM ${tableOf(d, UserEntity)} WHERE id = ${d.p(1)}`, [userId]);
    return { deleted: gone > 0, generation_ids: ids };
  });
}

/** The address a one-time token's data names, lower-case, or null: a JSON object's `email`, or the data itself. */
function tokenEmail(data: string | null): string | null {
  if (data === null) return null;
  let value: unknown = data;
  try {
    value = JSON.parse(data);
  } catch {
    // Not JSON: a sign-in link's data is the address as it is.
  }
  const email = value && typeof value === 'object' ? (value as { email?: unknown }).email : value;
  return typeof email === 'string' ? email.trim().toLowerCase() : null;
}
