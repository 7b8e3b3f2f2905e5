import { type Api, call } from './client';
import { listTeams } from './forms';

/*
 * What the caller may do with a form, as the API decides it (docs/teams.md, "Roles"): a personal form is its
 * owner's alone; a team form follows the caller's `your_role` in that team (GET /teams). The screens show only
 * the controls the role allows, so a viewer never meets a 403 after the fact (issue 36, "Roles in the UI").
 * These mirror the core's rules (packages/core forms/form-access.ts); the server still decides.
 */

export type FormRole = 'owner' | 'admin' | 'editor' | 'viewer';

/** Change the questions, settings, theme, logic, integrations; restore versions; duplicate within the team. */
export const mayEdit = (r: FormRole | null | undefined): boolean => r === 'owner' || r === 'admin' || r === 'editor';
/** Publish, unpublish and delete the form. */
export const mayPublish = (r: FormRole | null | undefined): boolean => r === 'owner' || r === 'admin';
export const mayDelete = mayPublish;
/** Create forms in a team (and so duplicate, move or copy a form into it). */
export const mayCreateIn = mayEdit;

export interface TeamWithRole {
  id: string;
  name: string;
  your_role: FormRole;
}

/** The caller's teams with their role in each (an empty list when the call fails: the server decides anyway). */
export async function teamsWithRoles(api: Api): Promise<TeamWithRole[]> {
  try {
    const r = (await listTeams(api)) as { teams?: TeamWithRole[] };
    return r.teams ?? [];
  } catch {
    return [];
  }
}

/** The caller's role on a form: `owner` of a personal form, else their role in its team (null: not a member). */
export function roleOn(form: { team_id?: string | null }, teams: TeamWithRole[]): FormRole | null {
  if (!form.team_id) return 'owner';
  return teams.find((t) => t.id === form.team_id)?.your_role ?? null;
}

/** `POST /forms/:id/move`: the same form into a team, or into the caller's own forms (`null`). */
export function moveForm(api: Api, id: string, teamId: string | null) {
  return call(api.client.POST('/forms/{id}/move', { params: { path: { id } }, body: { team_id: teamId } }));
}

/** `POST /forms/:id/copy`: a new draft copy in a team, or in the caller's own forms (`null`). */
export function copyForm(api: Api, id: string, teamId: string | null) {
  return call(api.client.POST('/forms/{id}/copy', { params: { path: { id } }, body: { team_id: teamId } }));
}
