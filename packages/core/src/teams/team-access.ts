import { forbidden, notFound } from '../errors';
import type { Principal, Team, TeamMember, TeamRole } from '../domain/types';
import type { Storage } from '../ports/storage';

/**
 * Loads a team the caller belongs to and checks their role. A caller outside the team gets 404 (the
 * team is not accessible to them, and its existence is not revealed); a member whose role is not in
 * `roles` gets 403.
 */
export async function requireTeamRole(
  storage: Storage,
  principal: Principal,
  teamId: string,
  roles: readonly TeamRole[] | 'any',
): Promise<{ team: Team; member: TeamMember }> {
  const [team, member] = await Promise.all([storage.teams.findById(teamId), storage.teams.findMember(teamId, principal.user_id)]);
  if (!team || !member) throw notFound('Team');
  if (roles !== 'any' && !roles.includes(member.role)) {
    throw forbidden(`Your team role (${member.role}) does not allow this`, { reason: 'insufficient_role' });
  }
  return { team, member };
}

export const MANAGERS: readonly TeamRole[] = ['owner', 'admin'];
