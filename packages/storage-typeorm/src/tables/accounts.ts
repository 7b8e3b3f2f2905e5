import type { ApiKey, User } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, bool, optInt, toBool, orNull, lowerEmail, pick, type Bool } from './columns';

/* Users and their API keys. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface UserRow {
  id: string;
  email: string;
  /** `email` lower-cased: the unique key that makes emails case-insensitive on both databases. */
  email_lower: string;
  first_name: string | null;
  last_name: string | null;
  plan: string;
  email_verified: Bool;
  created_at: string;
  updated_at: string;
}

export const UserEntity = new EntitySchema<UserRow>({
  name: 'FormloomUser',
  tableName: 'users',
  columns: {
    id,
    email: str,
    email_lower: str,
    first_name: optStr,
    last_name: optStr,
    plan: str,
    email_verified: bool,
    created_at: str,
    updated_at: str,
  },
  indices: [{ name: 'UQ_users_email_lower', columns: ['email_lower'], unique: true }],
});

export interface ApiKeyRow {
  id: string;
  user_id: string;
  secret_hash: string;
  name: string | null;
  scope: string;
  monthly_limit: number | null;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  made_by: string;
}

export const ApiKeyEntity = new EntitySchema<ApiKeyRow>({
  name: 'FormloomApiKey',
  tableName: 'api_keys',
  columns: {
    id,
    user_id: str,
    secret_hash: str,
    scope: str,
    name: optStr,
    monthly_limit: optInt,
    created_at: str,
    revoked_at: optStr,
    expires_at: optStr,
    // Migration 1741000000000: who made the key (`ApiKey.made_by`).
    made_by: { type: 'varchar', default: 'owner' },
  },
  indices: [{ name: 'IDX_api_keys_user_id', columns: ['user_id'] }],
});

export const userFromRow = (r: UserRow): User => ({
  id: r.id,
  email: r.email,
  first_name: r.first_name,
  last_name: r.last_name,
  plan: r.plan as User['plan'],
  email_verified: toBool(r.email_verified),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export const userToRow = (u: Partial<User>): Partial<UserRow> =>
  pick({
    id: u.id,
    email: u.email,
    email_lower: u.email === undefined ? undefined : lowerEmail(u.email),
    first_name: u.first_name,
    last_name: u.last_name,
    plan: u.plan,
    email_verified: u.email_verified,
    created_at: u.created_at,
    updated_at: u.updated_at,
  });

export const apiKeyFromRow = (r: ApiKeyRow): ApiKey => ({
  id: r.id,
  user_id: r.user_id,
  secret_hash: r.secret_hash,
  name: r.name ?? null,
  scope: r.scope as ApiKey['scope'],
  monthly_limit: r.monthly_limit == null ? null : Number(r.monthly_limit),
  created_at: r.created_at,
  revoked_at: r.revoked_at,
  expires_at: r.expires_at,
  made_by: r.made_by === 'operator' ? 'operator' : 'owner',
});

export const apiKeyToRow = (k: ApiKey): ApiKeyRow => ({
  id: k.id,
  user_id: k.user_id,
  secret_hash: k.secret_hash,
  name: orNull(k.name),
  scope: k.scope,
  monthly_limit: orNull(k.monthly_limit),
  created_at: k.created_at,
  revoked_at: orNull(k.revoked_at),
  expires_at: orNull(k.expires_at),
  made_by: k.made_by,
});
