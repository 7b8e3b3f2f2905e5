import { forbidden, notFound } from '../errors';
import type { FormRecord, Principal, TeamMember, TeamRole } from '../domain/types';
import type { FormListQuery, Storage } from '../ports/storage';

/** What a caller wants to do with a form. */
export type FormAction = 'read' | 'edit' | 'delete' | 'publish' | 'delete_responses';

const ROLE_ACTIONS: Record<TeamRole, ReadonlySet<FormAction>> = {
  owner: new Set(['read', 'edit', 'delete', 'publish', 'delete_responses']),
  admin: new Set(['read', 'edit', 'delete', 'publish', 'delete_responses']),
  editor: new Set(['read', 'edit', 'delete_responses']),
  viewer: new Set(['read']),
};

/** Roles that may create forms in a team (`create_forms`). */
export const CREATE_FORM_ROLES: ReadonlySet<TeamRole> = new Set(['owner', 'admin', 'editor']);

export function roleAllows(role: TeamRole, action: FormAction): boolean {
  return ROLE_ACTIONS[role].has(action);
}

/**
 * Loads a form and checks the caller may perform `action` on it. Personal forms belong to their owner
 * alone (403 for anyone else); team forms follow the caller's role, and a caller outside the team gets
 * 404, as if the form did not exist (docs/decisions.md, "Access").
 */
export async function authorizeForm(
  storage: Storage,
  principal: Principal,
  formId: string,
  action: FormAction,
): Promise<FormRecord> {
  const form = await storage.forms.findById(formId);
  if (!form) throw notFound('Form');
  return assertFormAccess(form, principal, action, (teamId, userId) => storage.teams.findMember(teamId, userId));
}

/** The rules of `authorizeForm` on a form already loaded; `findMember` is asked for team forms only. */
export async function assertFormAccess<F extends Pick<FormRecord, 'owner_id' | 'team_id'>>(
  form: F,
  principal: Principal,
  action: FormAction,
  findMember: (teamId: string, userId: string) => Promise<Pick<TeamMember, 'role'> | null>,
): Promise<F> {
  if (!form.team_id) {
    if (form.owner_id !== principal.user_id) throw forbidden('You do not have access to this form');
    return form;
  }
  const member = await findMember(form.team_id, principal.user_id);
  if (!member) throw notFound('Form');
  if (!roleAllows(member.role, action)) {
    throw forbidden(`Your team role (${member.role}) does not allow this`, { reason: 'insufficient_role' });
  }
  return form;
}

/** Checks the caller may create forms in the team; returns the team's owner id (whose plan applies). */
export async function authorizeTeamFormCreation(storage: Storage, principal: Principal, teamId: string) {
  const team = await storage.teams.findById(teamId);
  if (!team) throw notFound('Team');
  const member = await storage.teams.findMember(teamId, principal.user_id);
  // As for team forms: a team is not revealed to a non-member.
  if (!member) throw notFound('Team');
  if (!CREATE_FORM_ROLES.has(member.role)) {
    throw forbidden(`Your team role (${member.role}) cannot create forms`, { reason: 'insufficient_role' });
  }
  return team;
}

/** The user whose plan governs a form: the team owner for team forms, else the form owner. */
export async function planHolderOf(storage: Storage, form: Pick<FormRecord, 'team_id' | 'owner_id'>): Promise<string> {
  if (!form.team_id) return form.owner_id;
  const team = await storage.teams.findById(form.team_id);
  return team?.owner_id ?? form.owner_id;
}

/** Every form a list query matches, read page by page (an account's export or deletion, a respondent's search). */
export async function listAllForms(storage: Storage, query: Omit<FormListQuery, 'offset' | 'limit' | 'total'>): Promise<FormRecord[]> {
  const out: FormRecord[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await storage.forms.list({ ...query, offset, limit: 500 });
    out.push(...page.items);
    if (page.items.length < 500) return out;
  }
}
