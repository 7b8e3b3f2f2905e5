import { z } from 'zod';
import { documentAs, int, named, pageOf, timestamp } from '../api-schemas';
import { AUDIT_ACTIONS } from './audit-service';

/** What the teams services answer (team-service.ts, invitation-service.ts, audit-service.ts). */

export const teamRole = z.enum(['owner', 'admin', 'editor', 'viewer']);

const teamShape = {
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  owner_id: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
};
const ssoToken = z.string().nullable().describe('Only for owners and admins');

export const teamOut = named('Team', z.object(teamShape));

/** POST /teams: the team and the token for verifying an SSO domain. */
export const createdTeamOut = named('CreatedTeam', z.object({ ...teamShape, sso_domain_verify_token: z.string() }));

/** GET/PUT /teams/:teamId. */
export const teamDetailOut = named(
  'TeamDetail',
  z.object({
    ...teamShape,
    member_count: int,
    seats: z
      .object({ used: int.describe('members plus unexpired pending invitations'), limit: int.nullable().describe("the team owner's plan's seats; null: unlimited") })
      .optional()
      .describe('Seats of the plan (GET only)'),
    sso_domain_verify_token: ssoToken.optional(),
  }),
);

export const teamListItemOut = named(
  'TeamListItem',
  z.object({ ...teamShape, member_count: int, your_role: teamRole, sso_domain_verify_token: ssoToken.optional() }),
);

export const teamListOut = named('TeamList', z.object({ teams: z.array(teamListItemOut) }));

export const memberOut = named(
  'TeamMember',
  z.object({
    id: z.string(),
    user_id: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    role: teamRole,
    joined_at: timestamp,
  }),
);

export const memberListOut = named('TeamMemberList', z.object({ members: z.array(memberOut) }));

const membershipShape = { id: z.string(), user_id: z.string(), team_id: z.string(), role: teamRole, joined_at: timestamp };

export const membershipOut = named('Membership', z.object(membershipShape));

/** POST /invitations/:token/accept: the new membership with its team. */
export const acceptedInvitationOut = named('AcceptedInvitation', z.object({ ...membershipShape, team: teamOut }));

const invitationShape = {
  id: z.string(),
  team_id: z.string(),
  email: z.string(),
  role: z.enum(['admin', 'editor', 'viewer']),
  invited_by: z.string(),
  status: z.enum(['pending', 'accepted', 'cancelled']),
  language: z.string(),
  expires_at: timestamp,
  created_at: timestamp,
};
const inviteToken = z.string().describe('The secret of the invitation link; only owners and admins see it');
const inviteUrl = documentAs(z.string().describe('Path of the accept page (`/teams/invite/<token>`); only owners and admins see it'), { format: 'uri-reference' });

export const invitationOut = named('Invitation', z.object({ ...invitationShape, token: inviteToken.optional(), invite_url: inviteUrl.optional() }));

/** What creating an invitation answers: only owners and admins may, so the token and its link are always there. */
export const createdInvitationOut = named('CreatedInvitation', z.object({ ...invitationShape, token: inviteToken, invite_url: inviteUrl }));

export const invitationListOut = named('InvitationList', z.object({ invitations: z.array(invitationOut) }));

export const auditEventOut = named(
  'AuditEvent',
  z.object({
    id: z.string(),
    action: z.enum(AUDIT_ACTIONS),
    user_id: z.string().nullable(),
    user_email: z.string().nullable(),
    details: z.record(z.string(), z.unknown()),
    ip_address: z.string().nullable(),
    timestamp,
  }),
);

export const auditEventListOut = named('AuditEventList', pageOf('events', auditEventOut));

export const brandingOut = named(
  'TeamBranding',
  z.object({
    logo_url: z.string().nullable(),
    primary_color: z.string().nullable(),
    background_color: z.string().nullable(),
    text_color: z.string().nullable(),
    font_family: z.string().nullable(),
    footer_text: z.string().nullable(),
  }),
);
