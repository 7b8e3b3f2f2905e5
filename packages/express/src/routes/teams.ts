import { acceptedInvitationOut, createdInvitationOut, auditEventListOut, brandingOut, brandingSchema, createTeamSchema, createdTeamOut, invitationListOut, inviteSchema, memberListOut, memberRoleSchema, membershipOut, successMessageOut, successOut, teamDetailOut, teamListOut, updateTeamSchema } from '@formloom/core';
import { json, param, type RouteSpec } from '../route-table';
import { TIME_RANGE_PARAMS } from './query-params';

const team = (ctx: Parameters<RouteSpec['handler']>[0]) => param(ctx, 'teamId');
const ERR = [401, 403, 404];

/** Teams, members, invitations, audit logs and branding (docs/teams.md). */
export const teamRoutes: RouteSpec[] = [
  {
    method: 'get', path: '/teams', operationId: 'listTeams', summary: 'Teams the caller belongs to, with your_role', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: '{teams[]}', schema: teamListOut }, errors: [401],
    handler: async (ctx) => json(await ctx.formloom.teams.list(ctx.principal)),
  },
  {
    method: 'post', path: '/teams', operationId: 'createTeam', summary: 'Create a team; the caller becomes its owner', tag: 'Teams', scope: 'forms',
    body: createTeamSchema, success: { status: 201, description: 'the team', schema: createdTeamOut }, errors: [400, 401],
    handler: async (ctx) => json(await ctx.formloom.teams.create(ctx.principal, ctx.req.body), 201),
  },
  {
    method: 'get', path: '/teams/:teamId', operationId: 'getTeam', summary: 'A team (any member)', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: 'the team with member_count', schema: teamDetailOut }, errors: ERR,
    handler: async (ctx) => json(await ctx.formloom.teams.get(ctx.principal, team(ctx))),
  },
  {
    method: 'put', path: '/teams/:teamId', operationId: 'renameTeam', summary: 'Rename a team (owner or admin)', tag: 'Teams', scope: 'forms',
    body: updateTeamSchema, success: { status: 200, description: 'the updated team', schema: teamDetailOut }, errors: [400, ...ERR],
    handler: async (ctx) => json(await ctx.formloom.teams.rename(ctx.principal, team(ctx), ctx.req.body)),
  },
  {
    method: 'delete', path: '/teams/:teamId', operationId: 'deleteTeam', summary: 'Delete a team (owner only); its forms are kept', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: '{success: true}', schema: successOut }, errors: ERR,
    handler: async (ctx) => json(await ctx.formloom.teams.delete(ctx.principal, team(ctx))),
  },
  {
    method: 'get', path: '/teams/:teamId/members', operationId: 'listTeamMembers', summary: 'Members of a team', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: '{members[]}', schema: memberListOut }, errors: ERR,
    handler: async (ctx) => json(await ctx.formloom.teams.members(ctx.principal, team(ctx))),
  },
  {
    method: 'post', path: '/teams/:teamId/members', operationId: 'addTeamMember', summary: 'Invite a member (same as creating an invitation)', tag: 'Teams', scope: 'forms',
    body: inviteSchema, success: { status: 201, description: 'the invitation with its token and link', schema: createdInvitationOut }, errors: [400, ...ERR, 409],
    handler: async (ctx) => json(await ctx.formloom.invitations.create(ctx.principal, team(ctx), ctx.req.body), 201),
  },
  {
    method: 'put', path: '/teams/:teamId/members/:memberId', operationId: 'changeMemberRole', summary: "Change a member's role (owner or admin)", tag: 'Teams', scope: 'forms',
    body: memberRoleSchema, success: { status: 200, description: '{id, user_id, team_id, role, joined_at}', schema: membershipOut }, errors: [400, ...ERR],
    handler: async (ctx) => json(await ctx.formloom.teams.changeRole(ctx.principal, team(ctx), param(ctx, 'memberId'), ctx.req.body)),
  },
  {
    method: 'delete', path: '/teams/:teamId/members/:memberId', operationId: 'removeTeamMember', summary: 'Remove a member (owner or admin; not the owner)', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: '{success: true, message}', schema: successMessageOut }, errors: ERR,
    handler: async (ctx) => json(await ctx.formloom.teams.removeMember(ctx.principal, team(ctx), param(ctx, 'memberId'))),
  },
  {
    method: 'get', path: '/teams/:teamId/invitations', operationId: 'listInvitations', summary: 'Pending, unexpired invitations, newest first', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: '{invitations[]}; token only for owner/admin', schema: invitationListOut }, errors: ERR,
    handler: async (ctx) => json(await ctx.formloom.invitations.list(ctx.principal, team(ctx))),
  },
  {
    method: 'post', path: '/teams/:teamId/invitations', operationId: 'createInvitation', summary: 'Invite by email (owner or admin); sends the email', tag: 'Teams', scope: 'forms',
    body: inviteSchema, success: { status: 201, description: 'the invitation with its token and link', schema: createdInvitationOut }, errors: [400, ...ERR, 409],
    handler: async (ctx) => json(await ctx.formloom.invitations.create(ctx.principal, team(ctx), ctx.req.body), 201),
  },
  {
    method: 'delete', path: '/teams/:teamId/invitations/:invId', operationId: 'cancelInvitation', summary: 'Cancel an invitation (owner or admin)', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: '{success: true, message}', schema: successMessageOut }, errors: ERR,
    handler: async (ctx) => json(await ctx.formloom.invitations.cancel(ctx.principal, team(ctx), param(ctx, 'invId'))),
  },
  {
    method: 'post', path: '/invitations/:token/accept', operationId: 'acceptInvitation', summary: "Accept an invitation sent to the caller's email", tag: 'Teams', scope: 'forms',
    success: { status: 200, description: 'the new membership with its team', schema: acceptedInvitationOut }, errors: [401, 403, 404, 409],
    handler: async (ctx) => json(await ctx.formloom.invitations.accept(ctx.principal, param(ctx, 'token'))),
  },
  {
    method: 'get', path: '/teams/:teamId/audit-logs', operationId: 'listAuditEvents', summary: 'Audit log (owner or admin; Enterprise plan)', tag: 'Teams', scope: 'forms',
    query: [
      { name: 'action', description: 'e.g. member.invited', schema: { type: 'string' } },
      { name: 'user_id', description: 'acting user', schema: { type: 'string' } },
      ...TIME_RANGE_PARAMS,
      { name: 'page', description: 'page (1)', schema: { type: 'integer' } },
      { name: 'per_page', description: 'per page (50, max 100)', schema: { type: 'integer' } },
    ],
    success: { status: 200, description: '{events[], total, page, per_page}', schema: auditEventListOut }, errors: [400, ...ERR],
    handler: async (ctx) => json(await ctx.formloom.audit.list(ctx.principal, team(ctx), ctx.req.query)),
  },
  {
    method: 'get', path: '/teams/:teamId/branding', operationId: 'getTeamBranding', summary: 'Team branding (any member)', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: 'the branding', schema: brandingOut }, errors: ERR,
    handler: async (ctx) => json(await ctx.formloom.teams.branding(ctx.principal, team(ctx))),
  },
  {
    method: 'put', path: '/teams/:teamId/branding', operationId: 'updateTeamBranding', summary: 'Update branding fields (owner or admin)', tag: 'Teams', scope: 'forms',
    body: brandingSchema, success: { status: 200, description: 'the updated branding', schema: brandingOut }, errors: [400, ...ERR],
    handler: async (ctx) => json(await ctx.formloom.teams.updateBranding(ctx.principal, team(ctx), ctx.req.body)),
  },
  {
    method: 'delete', path: '/teams/:teamId/branding', operationId: 'deleteTeamBranding', summary: 'Remove all team branding (owner or admin)', tag: 'Teams', scope: 'forms',
    success: { status: 200, description: '{success: true}', schema: successOut }, errors: ERR,
    handler: async (ctx) => json(await ctx.formloom.teams.deleteBranding(ctx.principal, team(ctx))),
  },
];
