import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { AuditService } from './audit-service';
import { InvitationService } from './invitation-service';
import { TeamService } from './team-service';

export * from './team-schemas';
export * from './team-access';
export * from './audit-service';
export * from './team-service';
export * from './invitation-service';
export * from './output-schemas';

/** Teams, members and roles, invitations, branding and audit logs. */
export const teamsArea = definePlugin({
  name: 'teams',
  version: CORE_VERSION,
  services: [AuditService, TeamService, InvitationService],
});
