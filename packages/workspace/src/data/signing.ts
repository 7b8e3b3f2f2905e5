import { type Api, type Schemas, call } from './client';
import type { paths } from './api-types';

/* The signing sessions part of the API (docs/signing.md), for the builder's Signing tab. */

export type SigningSession = Schemas['SigningSession'];
export type SignerLink = Schemas['SignerLink'];
export type SessionListItem = Schemas['SigningSessionList']['sessions'][number];
export type SessionStatus = SigningSession['status'];
export type SignedDocument = Schemas['SignedDocument'];
export type AuditEntry = Schemas['SigningAuditEntry'];
/** The create request as the document types it (every field optional). */
export type CreateSessionBody = paths['/forms/{id}/signing-sessions']['post']['requestBody']['content']['application/json'];

export const SESSION_STATUSES: ReadonlyArray<readonly [SessionStatus, string]> = [
  ['active', 'Active'],
  ['fully_signed', 'Fully signed'],
  ['declined', 'Declined'],
  ['voided', 'Voided'],
  ['expired', 'Expired'],
];
export const statusLabel = (s: SessionStatus) => SESSION_STATUSES.find(([v]) => v === s)?.[1] ?? s;

export const NOTIFY_EVENTS = [
  ['each_signature', 'Each signature'],
  ['all_complete', 'Everyone signed'],
  ['decline', 'A signer declines'],
  ['expiry', 'The session expires'],
] as const;

export const createSession = (api: Api, formId: string, body: CreateSessionBody) =>
  call(api.client.POST('/forms/{id}/signing-sessions', { params: { path: { id: formId } }, body }));

export const listSessions = (api: Api, formId: string, q: { status?: SessionStatus; page?: number; per_page?: number }) =>
  call(api.client.GET('/forms/{id}/signing-sessions', { params: { path: { id: formId }, query: q } }));

export const getSession = (api: Api, sessionId: string) => call(api.client.GET('/signing-sessions/{sessionId}', { params: { path: { sessionId } } }));

export const voidSession = (api: Api, sessionId: string, reason: string) =>
  call(api.client.POST('/signing-sessions/{sessionId}/void', { params: { path: { sessionId } }, body: { reason } }));

export const resendRequest = (api: Api, sessionId: string, slotNumber: number) =>
  call(api.client.POST('/signing-sessions/{sessionId}/resend/{slotNumber}', { params: { path: { sessionId, slotNumber: String(slotNumber) } } }));

export const listDocuments = (api: Api, sessionId: string) => call(api.client.GET('/signing-sessions/{sessionId}/documents', { params: { path: { sessionId } } }));

export const getAudit = (api: Api, sessionId: string) => call(api.client.GET('/signing-sessions/{sessionId}/audit', { params: { path: { sessionId } } }));

/**
 * A sealed PDF's download address under the workspace's own API base (same origin, so the page's cookie
 * signs the request), rather than `document_url`, which is built on the instance's public URL.
 */
export const documentUrl = (api: Api, sessionId: string, docId: string) =>
  `${api.base.replace(/\/+$/, '')}/signing-sessions/${encodeURIComponent(sessionId)}/documents/${encodeURIComponent(docId)}`;
