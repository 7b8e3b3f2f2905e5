import { type Api, type Schemas, call } from './client';

/* The teams area of the API (docs/teams.md): typed calls the Teams screens use, one per operation. */

export type TeamListItem = Schemas['TeamListItem'];
export type TeamDetail = Schemas['TeamDetail'];
export type TeamMember = Schemas['TeamMember'];
export type Invitation = Schemas['Invitation'];
export type Branding = Schemas['TeamBranding'];
export type AuditEvent = Schemas['AuditEvent'];
export type AuditList = Schemas['AuditEventList'];
export type TeamRole = TeamMember['role'];
export type InviteRole = Invitation['role'];

export const AUDIT_ACTIONS: AuditEvent['action'][] = [
  'team.created', 'team.renamed', 'team.deleted', 'member.invited', 'member.joined', 'member.role_changed', 'member.removed',
  'invitation.cancelled', 'branding.updated', 'branding.deleted', 'form.created', 'form.published', 'form.unpublished', 'form.deleted', 'webhooks.changed',
  'form.moved_in', 'form.moved_out', 'form.copied_in', 'form.copied_out',
];

/** What each role may do on the screen; it mirrors the API's rules (docs/teams.md, the roles table). */
export function canManage(role: TeamRole | undefined): boolean {
  return role === 'owner' || role === 'admin';
}

export const listTeams = (api: Api) => call(api.client.GET('/teams', {}));
export const createTeam = (api: Api, name: string) => call(api.client.POST('/teams', { body: { name } as never }));
export const getTeam = (api: Api, teamId: string) => call(api.client.GET('/teams/{teamId}', { params: { path: { teamId } } }));
export const renameTeam = (api: Api, teamId: string, name: string) => call(api.client.PUT('/teams/{teamId}', { params: { path: { teamId } }, body: { name } as never }));
export const deleteTeam = (api: Api, teamId: string) => call(api.client.DELETE('/teams/{teamId}', { params: { path: { teamId } } }));

export const listMembers = (api: Api, teamId: string) => call(api.client.GET('/teams/{teamId}/members', { params: { path: { teamId } } }));
export const changeRole = (api: Api, teamId: string, memberId: string, role: InviteRole) =>
  call(api.client.PUT('/teams/{teamId}/members/{memberId}', { params: { path: { teamId, memberId } }, body: { role } as never }));
export const removeMember = (api: Api, teamId: string, memberId: string) =>
  call(api.client.DELETE('/teams/{teamId}/members/{memberId}', { params: { path: { teamId, memberId } } }));

export const listInvitations = (api: Api, teamId: string) => call(api.client.GET('/teams/{teamId}/invitations', { params: { path: { teamId } } }));
export const invite = (api: Api, teamId: string, email: string, role: InviteRole) =>
  call(api.client.POST('/teams/{teamId}/invitations', { params: { path: { teamId } }, body: { email, role } as never }));
export const cancelInvitation = (api: Api, teamId: string, invId: string) =>
  call(api.client.DELETE('/teams/{teamId}/invitations/{invId}', { params: { path: { teamId, invId } } }));

export const getBranding = (api: Api, teamId: string) => call(api.client.GET('/teams/{teamId}/branding', { params: { path: { teamId } } }));
export const updateBranding = (api: Api, teamId: string, body: Partial<Branding>) =>
  call(api.client.PUT('/teams/{teamId}/branding', { params: { path: { teamId } }, body: body as never }));
export const deleteBranding = (api: Api, teamId: string) => call(api.client.DELETE('/teams/{teamId}/branding', { params: { path: { teamId } } }));

export interface AuditFilters {
  action?: string;
  user_id?: string;
  since?: string;
  until?: string;
  page?: number;
}
export const listAudit = (api: Api, teamId: string, f: AuditFilters) =>
  call(api.client.GET('/teams/{teamId}/audit-logs', { params: { path: { teamId }, query: { ...f, per_page: 25 } as never } }));
