import { z } from 'zod';
import { named } from '@formloom/core';
import { json, param, type RouteSpec } from '../route-table';

const publicInvitationOut = named(
  'PublicInvitation',
  z.object({
    team_name: z.string(),
    role: z.string(),
    invited_by_name: z.string().nullable(),
    expires_at: z.string(),
    status: z.enum(['pending', 'accepted', 'cancelled', 'expired']),
  }),
);

/**
 * What the invitation page shows to whoever holds the token (docs/teams.md): team, role, inviter, expiry,
 * status; no ids, not the invited address. Public: the token is the credential, and wrong guesses count as
 * failed authentication.
 */
export const invitationViewRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/invitations/:token',
    operationId: 'getInvitation',
    summary: 'An invitation as its token holder sees it before accepting (no key)',
    tag: 'Teams',
    scope: null,
    success: { status: 200, description: '{team_name, role, invited_by_name, expires_at, status}', schema: publicInvitationOut },
    errors: [404],
    handler: async (ctx) => json(await ctx.formloom.invitations.publicView(param(ctx, 'token'))),
  },
];
