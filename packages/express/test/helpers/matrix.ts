import type { ExecutionContext } from 'ava';
import type { Principal } from '@formloom/core';
import type { TestApp } from './app';

export const ACTORS = ['owner', 'admin', 'editor', 'viewer', 'otherTeam', 'stranger', 'anonymous'] as const;
export type Actor = (typeof ACTORS)[number];

export interface Users {
  keys: Record<Exclude<Actor, 'anonymous'>, string>;
  emails: Record<Exclude<Actor, 'anonymous'>, string>;
  ids: Record<Exclude<Actor, 'anonymous'>, string>;
}

/** A team with one member per role, a published team form with a response, a pending invitation and branding. */
export interface World {
  teamId: string;
  teamName: string;
  formId: string;
  formTitle: string;
  slug: string;
  responseId: string;
  invitationId: string;
  /** The form's published version. */
  versionId: string;
  members: Record<'owner' | 'admin' | 'editor' | 'viewer', string>;
}

let n = 0;

export async function makeUsers(app: TestApp): Promise<Users> {
  const keys = {} as Users['keys'];
  const emails = {} as Users['emails'];
  const ids = {} as Users['ids'];
  for (const a of ACTORS) {
    if (a === 'anonymous') continue;
    const u = await app.user(a === 'owner' ? 'enterprise' : 'pro');
    keys[a] = u.key;
    emails[a] = u.email;
    ids[a] = u.id;
  }
  const other = await app.api('POST', '/teams', { key: keys.otherTeam, body: { name: 'Other team' } });
  if (other.status !== 201) throw new Error(JSON.stringify(other.body));
  return { keys, emails, ids };
}

async function ok(res: Promise<{ status: number; body: any }>, status: number) {
  const r = await res;
  if (r.status !== status) throw new Error(`setup expected ${status}, got ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/**
 * The caller `actor` as the services see it. Worlds are made through the services the routes call (the team,
 * its invitations, form, version and branding; only the response over HTTP): what is under test is each
 * cell's call, and over HTTP the worlds were most of the file's requests.
 */
const as = (users: Users, actor: Exclude<Actor, 'anonymous'>): Principal => ({ user_id: users.ids[actor], key_id: null, scope: 'forms' });

export async function makeWorld(app: TestApp, users: Users): Promise<World> {
  const tag = `${process.pid}-${++n}`;
  const teamName = `SecretTeam-${tag}`;
  const owner = as(users, 'owner');
  const team = await app.formloom.teams.create(owner, { name: teamName });
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const inv = (await app.formloom.invitations.create(owner, team.id, { email: users.emails[role], role })) as { token: string };
    await app.formloom.invitations.accept(as(users, role), inv.token);
  }
  const { members } = await app.formloom.teams.members(owner, team.id);
  const byRole = Object.fromEntries(members.map((m) => [m.role, m.id])) as World['members'];
  const form = await teamForm(app, users, team.id, tag);
  const invitation = (await app.formloom.invitations.create(owner, team.id, { email: `pending-${tag}@example.com`, role: 'viewer' })) as { id: string };
  await app.formloom.teams.updateBranding(owner, team.id, { primary_color: '#123456' });
  return { teamId: team.id, teamName, ...form, invitationId: invitation.id, members: byRole };
}

/** A published form of the team, made by its owner, with one response (sent as a respondent would) and its published version. */
async function teamForm(app: TestApp, users: Users, teamId: string, tag: string): Promise<Pick<World, 'formId' | 'formTitle' | 'slug' | 'responseId' | 'versionId'>> {
  const formTitle = `SecretForm-${tag}`;
  const owner = as(users, 'owner');
  const form = (await app.formloom.forms.create(owner, {
    title: formTitle,
    team_id: teamId,
    published: true,
    questions: [{ type: 'short_text', title: 'Name' }],
  })) as { id: string; slug: string; questions: { id: string }[] };
  const response = await ok(app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0]!.id, value: 'x' }] } }), 201);
  const versionId = (await app.formloom.publishing.versions(owner, form.id)).versions[0]!.id;
  return { formId: form.id, formTitle, slug: form.slug, responseId: response.id, versionId };
}

/**
 * The shared world with a form of its own in the same team: for a call that changes or removes only its form,
 * the caller's role in the team (what the answer depends on) is the shared world's, and its form is new.
 */
export async function withOwnForm(app: TestApp, users: Users, shared: World): Promise<World> {
  return { ...shared, ...(await teamForm(app, users, shared.teamId, `${process.pid}-${++n}`)) };
}

export interface Cell {
  name: string;
  /**
   * What each successful call needs of its own, because it changes or removes what the other calls use: a whole
   * world (`team`: the team, its members, invitation and branding change), or a form of the shared team (`form`:
   * only the form, its responses, versions, theme or webhooks change; a new team with four members would add
   * ten requests a call and test nothing more).
   */
  destructive?: 'team' | 'form';
  call(w: World): { method: string; path: string; body?: unknown };
  expect: Record<Actor, number>;
}

const members = (ok: number, low: number) => ({ owner: ok, admin: ok, editor: low, viewer: low, otherTeam: 404, stranger: 404, anonymous: 401 });
const anyMember = (ok = 200) => ({ owner: ok, admin: ok, editor: ok, viewer: ok, otherTeam: 404, stranger: 404, anonymous: 401 });
const editors = (ok = 200) => ({ owner: ok, admin: ok, editor: ok, viewer: 403, otherTeam: 404, stranger: 404, anonymous: 401 });

export const CELLS: Cell[] = [
  { name: 'GET /teams/:id', call: (w) => ({ method: 'GET', path: `/teams/${w.teamId}` }), expect: anyMember() },
  { name: 'PUT /teams/:id', call: (w) => ({ method: 'PUT', path: `/teams/${w.teamId}`, body: { name: 'Renamed' } }), expect: members(200, 403), destructive: 'team' },
  { name: 'DELETE /teams/:id', call: (w) => ({ method: 'DELETE', path: `/teams/${w.teamId}` }), expect: { ...members(403, 403), owner: 200 }, destructive: 'team' },
  { name: 'GET members', call: (w) => ({ method: 'GET', path: `/teams/${w.teamId}/members` }), expect: anyMember() },
  { name: 'POST members', call: (w) => ({ method: 'POST', path: `/teams/${w.teamId}/members`, body: { email: `new-${Math.random()}@example.com`, role: 'viewer' } }), expect: members(201, 403) },
  { name: 'PUT member role', call: (w) => ({ method: 'PUT', path: `/teams/${w.teamId}/members/${w.members.viewer}`, body: { role: 'editor' } }), expect: members(200, 403), destructive: 'team' },
  { name: 'DELETE member', call: (w) => ({ method: 'DELETE', path: `/teams/${w.teamId}/members/${w.members.viewer}` }), expect: members(200, 403), destructive: 'team' },
  { name: 'GET invitations', call: (w) => ({ method: 'GET', path: `/teams/${w.teamId}/invitations` }), expect: anyMember() },
  { name: 'POST invitations', call: (w) => ({ method: 'POST', path: `/teams/${w.teamId}/invitations`, body: { email: `inv-${Math.random()}@example.com`, role: 'editor' } }), expect: members(201, 403) },
  { name: 'DELETE invitation', call: (w) => ({ method: 'DELETE', path: `/teams/${w.teamId}/invitations/${w.invitationId}` }), expect: members(200, 403), destructive: 'team' },
  { name: 'GET audit-logs', call: (w) => ({ method: 'GET', path: `/teams/${w.teamId}/audit-logs` }), expect: members(200, 403) },
  { name: 'GET branding', call: (w) => ({ method: 'GET', path: `/teams/${w.teamId}/branding` }), expect: anyMember() },
  { name: 'PUT branding', call: (w) => ({ method: 'PUT', path: `/teams/${w.teamId}/branding`, body: { text_color: '#000000' } }), expect: members(200, 403), destructive: 'team' },
  { name: 'DELETE branding', call: (w) => ({ method: 'DELETE', path: `/teams/${w.teamId}/branding` }), expect: members(200, 403), destructive: 'team' },
  { name: 'POST /forms in team', call: (w) => ({ method: 'POST', path: '/forms', body: { title: 'New', team_id: w.teamId } }), expect: editors(201) },
  { name: 'GET /forms/:id', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}` }), expect: anyMember() },
  { name: 'PUT /forms/:id', call: (w) => ({ method: 'PUT', path: `/forms/${w.formId}`, body: { title: 'Edited' } }), expect: editors(), destructive: 'form' },
  { name: 'PUT /forms/:id published:false', call: (w) => ({ method: 'PUT', path: `/forms/${w.formId}`, body: { published: false } }), expect: members(200, 403), destructive: 'form' },
  { name: 'DELETE /forms/:id', call: (w) => ({ method: 'DELETE', path: `/forms/${w.formId}` }), expect: members(200, 403), destructive: 'form' },
  { name: 'POST publish', call: (w) => ({ method: 'POST', path: `/forms/${w.formId}/publish` }), expect: members(200, 403), destructive: 'form' },
  { name: 'DELETE publish', call: (w) => ({ method: 'DELETE', path: `/forms/${w.formId}/publish` }), expect: members(200, 403), destructive: 'form' },
  { name: 'POST duplicate', call: (w) => ({ method: 'POST', path: `/forms/${w.formId}/duplicate` }), expect: editors(201) },
  { name: 'GET versions', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}/versions` }), expect: anyMember() },
  { name: 'POST version restore', call: (w) => ({ method: 'POST', path: `/forms/${w.formId}/versions/${w.versionId}/restore` }), expect: editors(), destructive: 'form' },
  { name: 'PUT slug (published form)', call: (w) => ({ method: 'PUT', path: `/forms/${w.formId}/slug`, body: { slug: `moved-${Math.random().toString(36).slice(2, 10)}` } }), expect: members(200, 403), destructive: 'form' },
  { name: 'GET theme', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}/theme` }), expect: anyMember() },
  { name: 'PUT theme', call: (w) => ({ method: 'PUT', path: `/forms/${w.formId}/theme`, body: { text_color: '#ffffff' } }), expect: editors(), destructive: 'form' },
  { name: 'GET responses', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}/responses` }), expect: anyMember() },
  { name: 'GET response', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}/responses/${w.responseId}` }), expect: anyMember() },
  { name: 'DELETE response', call: (w) => ({ method: 'DELETE', path: `/forms/${w.formId}/responses/${w.responseId}` }), expect: editors(), destructive: 'form' },
  { name: 'POST bulk-delete', call: (w) => ({ method: 'POST', path: `/forms/${w.formId}/responses/bulk-delete`, body: { response_ids: [w.responseId] } }), expect: editors(), destructive: 'form' },
  { name: 'GET export', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}/responses/export` }), expect: anyMember() },
  { name: 'GET analytics', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}/analytics` }), expect: anyMember() },
  { name: 'GET form webhooks', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}/webhooks` }), expect: anyMember() },
  { name: 'PUT form webhooks', call: (w) => ({ method: 'PUT', path: `/forms/${w.formId}/webhooks`, body: { url: 'https://example.com/h' } }), expect: editors(), destructive: 'form' },
  { name: 'GET deliveries', call: (w) => ({ method: 'GET', path: `/forms/${w.formId}/webhooks/deliveries` }), expect: anyMember() },
];

/** Runs every cell for every actor and asserts the exact status, and that refusals leak nothing. */
export async function runMatrix(t: ExecutionContext, app: TestApp) {
  const users = await makeUsers(app);
  const shared = await makeWorld(app, users);
  // The titles of every form made in the shared team: none may show in another caller's lists.
  const titles = [shared.formTitle];
  const own = async (cell: Cell, actor: Actor): Promise<World> => {
    if (!cell.destructive || cell.expect[actor] >= 300) return shared;
    if (cell.destructive === 'team') return makeWorld(app, users);
    const w = await withOwnForm(app, users, shared);
    titles.push(w.formTitle);
    return w;
  };
  for (const cell of CELLS) {
    for (const actor of ACTORS) {
      const w = await own(cell, actor);
      const { method, path, body } = cell.call(w);
      const key = actor === 'anonymous' ? undefined : users.keys[actor];
      const res = await app.api(method, path, { key, body });
      t.is(res.status, cell.expect[actor], `${cell.name} as ${actor}: ${res.text.slice(0, 200)}`);
      if (res.status >= 400) {
        t.like(res.body, { error: { status: res.status } }, `${cell.name} as ${actor}: structured error`);
        t.false(res.text.includes(w.teamName) || res.text.includes(w.formTitle) || res.text.includes(w.slug), `${cell.name} as ${actor} leaks`);
      }
    }
  }
  for (const actor of ['otherTeam', 'stranger'] as const) {
    const lists = [await app.api('GET', '/teams', { key: users.keys[actor] }), await app.api('GET', '/forms', { key: users.keys[actor] }), await app.api('GET', `/forms?team_id=${shared.teamId}`, { key: users.keys[actor] })];
    for (const l of lists) {
      t.is(l.status, 200);
      t.false(l.text.includes(shared.teamName) || titles.some((title) => l.text.includes(title)), `list leaks to ${actor}`);
    }
  }
  const anon = await app.api('GET', '/teams');
  t.is(anon.status, 401);
}
