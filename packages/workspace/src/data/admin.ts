import type { Api } from './client';
import { request } from './auth';

/*
 * The instance admin's endpoints (docs/accounts.md, "The admin area"). Like the account's, they are served
 * only with sessions, so they are written here by hand in the generated calls' error shape.
 */

export interface AdminPerson {
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  plan: string;
  email_verified: boolean;
  created_at: string;
  is_admin: boolean;
}

export interface AdminKey {
  key_id: string;
  scope: 'forms' | 'voice';
  monthly_limit: number | null;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
  made_by: string;
}

export interface AdminPersonDetail {
  person: AdminPerson;
  credits: number;
  api_keys: AdminKey[];
}

export interface StuckItem {
  id: string;
  kind: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface PeopleFilter {
  q?: string;
  plan?: string;
  verified?: string;
  admin?: string;
}

export const PLANS = ['free', 'pro', 'business', 'enterprise'] as const;

export function listPeople(api: Api, filter: PeopleFilter, offset = 0, limit = 50) {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v) qs.set(k, v);
  qs.set('offset', String(offset));
  qs.set('limit', String(limit));
  return request<{ people: AdminPerson[]; total: number }>(api, 'GET', `/admin/users?${qs}`);
}

const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

export const getPerson = (api: Api, id: string) => request<AdminPersonDetail>(api, 'GET', userPath(id));
export const setPlan = (api: Api, id: string, plan: string) => request<AdminPersonDetail>(api, 'PATCH', userPath(id), { plan });
export const addCredits = (api: Api, id: string, credits: number) => request<{ user_id: string; credits: number }>(api, 'POST', `${userPath(id)}/credits`, { credits });
export const revokeKey = (api: Api, id: string, keyId: string) => request<void>(api, 'DELETE', `${userPath(id)}/api-keys/${encodeURIComponent(keyId)}`);
export const listStuck = (api: Api) => request<{ items: StuckItem[] }>(api, 'GET', '/admin/outbox');
export const retryStuck = (api: Api, id: string) => request<void>(api, 'POST', `/admin/outbox/${encodeURIComponent(id)}/retry`);
export const dropStuck = (api: Api, id: string) => request<void>(api, 'DELETE', `/admin/outbox/${encodeURIComponent(id)}`);

export interface StoredBackup {
  name: string;
  bytes: number;
  created_at: string;
}

export interface BackupList {
  backups: StoredBackup[];
  database: 'sqlite' | 'postgres';
  schedule: { every_hours: number | null; keep: number };
  guidance: string | null;
}

/** The self-hosted app's backups (docs/backup-and-restore.md); a host that did not add them answers 404. */
export const listBackups = (api: Api) => request<BackupList>(api, 'GET', '/admin/backups');
export const takeBackup = (api: Api) => request<{ backup: StoredBackup; rows: number; files: number; pruned: string[] }>(api, 'POST', '/admin/backups');
export const backupUrl = (api: Api, name: string) => `${api.base}/admin/backups/${encodeURIComponent(name)}`;

/** `GET /admin/users/:id/deletion` and `DELETE /admin/users/:id` (docs/accounts.md, "Deleting an account"). */
export interface DeletionPlan {
  forms: number;
  responses: number;
  signed_contracts: number;
  teams_deleted: Array<{ id: string; name: string }>;
  teams_left: Array<{ id: string; name: string }>;
  blockers: Array<{ reason: string; message: string }>;
}
export const deletionPlan = (api: Api, id: string) => request<DeletionPlan>(api, 'GET', `${userPath(id)}/deletion`);
export const deletePerson = (api: Api, id: string, signed: boolean) => request<{ deleted: true }>(api, 'DELETE', userPath(id), signed ? { delete_signed_contracts: true } : {});
