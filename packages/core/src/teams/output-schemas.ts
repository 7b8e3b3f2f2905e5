import { z } from 'zod';
import { int, named, pageOf, timestamp } from '../api-schemas';

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
export const teamDetailOut = named('TeamDetail', z.object({ ...teamShape, member_count: int, sso_domain_verify_token: ssoToken.optional() }));

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

export const invitationOut = named(
  'Invitation',
  z.object({
    id: z.string(),
    team_id: z.string(),
    email: z.string(),
    role: z.enum(['admin', 'editor', 'viewer']),
    invited_by: z.string(),
    status: z.enum(['pending', 'accepted', 'cancelled']),
    language: z.string(),
    expires_at: timestamp,
    created_at: timestamp,
    token: z.string().optional().describe('Only for owners and admins'),
    invite_url: z.string().optional().describe('Only for owners and admins'),
  }),
);

export const invitationListOut = named('InvitationList', z.object({ invitations: z.array(invitationOut) }));

export const auditEventOut = named(
  'AuditEvent',
  z.object({
    id: z.string(),
    action: z.string().describe('e.g. member.invited, form.published'),
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
