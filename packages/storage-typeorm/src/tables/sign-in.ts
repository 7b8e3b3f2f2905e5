import type { OneTimeToken, PasskeyRecord, SignInSession } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, int, optStr, optText, str, text } from './columns';

/* Sign-in (docs/accounts.md): passwords, the admin slot, sessions, one-time tokens, passkeys. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface PasswordRow {
  user_id: string;
  password_hash: string;
  updated_at: string;
}

export const PasswordEntity = new EntitySchema<PasswordRow>({
  name: 'FormloomUserPassword',
  tableName: 'user_passwords',
  columns: { user_id: id, password_hash: str, updated_at: str },
});

/** Instance-wide slots that exactly one user may take (`admin`): the primary key makes the claim atomic. */
export interface InstanceClaimRow {
  name: string;
  user_id: string;
  claimed_at: string;
}

export const InstanceClaimEntity = new EntitySchema<InstanceClaimRow>({
  name: 'FormloomInstanceClaim',
  tableName: 'instance_claims',
  columns: { name: id, user_id: str, claimed_at: str },
});

export type SignInSessionRow = SignInSession;

export const SignInSessionEntity = new EntitySchema<SignInSessionRow>({
  name: 'FormloomSignInSession',
  tableName: 'sign_in_sessions',
  columns: {
    id,
    user_id: str,
    token_hash: str,
    created_at: str,
    last_seen_at: str,
    expires_at: str,
    user_agent: optStr,
    ip_address: optStr,
  },
  indices: [
    { name: 'UQ_sign_in_sessions_token_hash', columns: ['token_hash'], unique: true },
    { name: 'IDX_sign_in_sessions_user_id', columns: ['user_id'] },
    { name: 'IDX_sign_in_sessions_expires_at', columns: ['expires_at'] },
  ],
});

export type OneTimeTokenRow = OneTimeToken;

export const OneTimeTokenEntity = new EntitySchema<OneTimeTokenRow>({
  name: 'FormloomOneTimeToken',
  tableName: 'one_time_tokens',
  columns: {
    id,
    token_hash: str,
    purpose: str,
    user_id: optStr,
    data: optText,
    created_at: str,
    expires_at: str,
    used_at: optStr,
  },
  indices: [
    { name: 'UQ_one_time_tokens_token_hash', columns: ['token_hash'], unique: true },
    { name: 'IDX_one_time_tokens_user_purpose', columns: ['user_id', 'purpose'] },
    { name: 'IDX_one_time_tokens_expires_at', columns: ['expires_at'] },
  ],
});

export interface PasskeyRow {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number | string;
  /** JSON array. */
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export const PasskeyEntity = new EntitySchema<PasskeyRow>({
  name: 'FormloomPasskey',
  tableName: 'passkeys',
  columns: {
    id,
    user_id: str,
    credential_id: str,
    public_key: text,
    counter: int,
    transports: text,
    name: str,
    created_at: str,
    last_used_at: optStr,
  },
  indices: [
    { name: 'UQ_passkeys_credential_id', columns: ['credential_id'], unique: true },
    { name: 'IDX_passkeys_user_id', columns: ['user_id'] },
  ],
});

export const passkeyFromRow = (r: PasskeyRow): PasskeyRecord => ({
  id: r.id,
  user_id: r.user_id,
  credential_id: r.credential_id,
  public_key: r.public_key,
  counter: Number(r.counter),
  transports: JSON.parse(r.transports) as string[],
  name: r.name,
  created_at: r.created_at,
  last_used_at: r.last_used_at,
});

export const passkeyToRow = (p: PasskeyRecord): PasskeyRow => ({ ...p, transports: JSON.stringify(p.transports) });

/** Rows as either driver hands them back: nothing to convert besides the order of the record's fields. */
export const sessionFromRow = (r: SignInSessionRow): SignInSession => ({
  id: r.id,
  user_id: r.user_id,
  token_hash: r.token_hash,
  created_at: r.created_at,
  last_seen_at: r.last_seen_at,
  expires_at: r.expires_at,
  user_agent: r.user_agent,
  ip_address: r.ip_address,
});

export const tokenFromRow = (r: OneTimeTokenRow): OneTimeToken => ({
  id: r.id,
  token_hash: r.token_hash,
  purpose: r.purpose,
  user_id: r.user_id,
  data: r.data,
  created_at: r.created_at,
  expires_at: r.expires_at,
  used_at: r.used_at,
});
