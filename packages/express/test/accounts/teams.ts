import test from '../helpers/bounded-test';
import { forEachDb, type TestApp } from '../helpers/app';
import { waitFor } from '@formloom/core/testing';

/** Time under the test's control (a true boundary): invitations expire after 7 days. */
const clock = { offsetMs: 0, now: () => new Date(Date.now() + clock.offsetMs) };
const sent: Array<{ to: string; subject: string; text: string }> = [];
const mailer = { send: async (m: { to: string; subject: string; text: string }) => (sent.push(m), { id: `m${sent.length}` }) };

async function team(app: TestApp, plan: 'free' | 'pro' | 'enterprise' = 'enterprise', name = 'Acme') {
  const owner = await app.user(plan);
  const res = await app.api('POST', '/teams', { key: owner.key, body: { name } });
  return { owner, team: res.body, res };
}

async function join(app: TestApp, teamId: string, ownerKey: string, role: 'admin' | 'editor' | 'viewer') {
  const u = await app.user();
  const inv = await app.api('POST', `/teams/${teamId}/invitations`, { key: ownerKey, body: { email: u.email.toUpperCase(), role } });
  const acc = await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: u.key });
  return { ...u, inv: inv.body, accepted: acc };
}

forEachDb(
  test,
  (it) => {
    it('create, get, list with your_role and member_count; secrets only to owner and admin', async (t, app) => {
      const { owner, team: tm, res } = await team(app);
      t.is(res.status, 201);
      t.regex(tm.id, /^team_/);
      t.like(tm, { name: 'Acme', owner_id: owner.id });
      t.regex(tm.slug, /^acme-/);
      t.false('member_count' in tm);
      t.is(typeof tm.sso_domain_verify_token, 'string');
      const viewer = await join(app, tm.id, owner.key, 'viewer');
      t.is(viewer.accepted.status, 200);
      t.like(viewer.accepted.body, { team_id: tm.id, user_id: viewer.id, role: 'viewer', team: { id: tm.id, name: 'Acme' } });
      const got = await app.api('GET', `/teams/${tm.id}`, { key: owner.key });
      t.like(got.body, { id: tm.id, member_count: 2, sso_domain_verify_token: tm.sso_domain_verify_token });
      const asViewer = await app.api('GET', `/teams/${tm.id}`, { key: viewer.key });
      t.false('sso_domain_verify_token' in asViewer.body);
      // The seats (members plus pending invitations) of the owner's plan (enterprise: no limit).
      t.false('your_role' in asViewer.body, 'your_role is in the list only');
      t.like(asViewer.body, { seats: { used: 2, limit: null } });
      t.is((await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'seat@example.com', role: 'viewer' } })).status, 201);
      t.like((await app.api('GET', `/teams/${tm.id}`, { key: owner.key })).body, { seats: { used: 3, limit: null } });
      const list = await app.api('GET', '/teams', { key: viewer.key });
      t.deepEqual(list.body.teams.map((x: any) => [x.id, x.your_role, x.member_count]), [[tm.id, 'viewer', 2]]);
      t.is((await app.api('POST', '/teams', { key: owner.key, body: { name: ' ' } })).status, 400);
      t.is((await app.api('PUT', `/teams/${tm.id}`, { key: owner.key, body: { name: 'Acme 2' } })).body.name, 'Acme 2');
    });

    it('invitations: fields, lower-case email, 7-day expiry, 409s, expired ones do not block, the email is queued', async (t, app) => {
      const { owner, team: tm } = await team(app);
      const res = await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'New.Person@Example.COM', role: 'editor' } });
      t.is(res.status, 201);
      const inv = res.body;
      for (const k of ['id', 'team_id', 'email', 'role', 'invited_by', 'token', 'status', 'language', 'expires_at', 'created_at', 'invite_url']) t.true(k in inv, k);
      t.like(inv, { team_id: tm.id, email: 'new.person@example.com', role: 'editor', invited_by: owner.id, status: 'pending', language: 'en' });
      t.is(inv.invite_url, `/teams/invite/${inv.token}`);
      t.is(Date.parse(inv.expires_at) - Date.parse(inv.created_at), 7 * 86_400_000);
      const again = await app.api('POST', `/teams/${tm.id}/members`, { key: owner.key, body: { email: 'new.person@example.com', role: 'viewer' } });
      t.is(again.status, 409);
      t.is(again.body.error.code, 'CONFLICT');
      const member = await join(app, tm.id, owner.key, 'viewer');
      t.is((await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: member.email, role: 'admin' } })).status, 409);
      for (const body of [{ email: 'bad', role: 'viewer' }, { email: 'a@b.co', role: 'owner' }, { email: 'a@b.co' }]) {
        t.is((await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body })).status, 400, JSON.stringify(body));
      }
      clock.offsetMs = 8 * 86_400_000;
      try {
        t.is((await app.api('POST', `/invitations/${inv.token}/accept`, { key: owner.key })).status, 404, 'expired');
        t.is((await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'new.person@example.com', role: 'viewer' } })).status, 201);
        const listed = await app.api('GET', `/teams/${tm.id}/invitations`, { key: owner.key });
        t.deepEqual(listed.body.invitations.map((i: any) => i.email), ['new.person@example.com']);
      } finally {
        clock.offsetMs = 0;
      }
      // The mail queued before the start is claimed at once, later ones wake it: no fast poll for the file's rest.
      app.formloom.worker.start();
      const arrived = () => sent.some((m) => m.to === 'new.person@example.com' && m.text.includes(`/teams/invite/${inv.token}`));
      await waitFor(arrived, { intervalMs: 20 }).catch(() => undefined);
      t.true(arrived());
    });

    it('seats: members plus unexpired pending invitations count against the owner plan', async (t, app) => {
      const { owner, team: tm } = await team(app, 'free');
      t.is((await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'a@example.com', role: 'viewer' } })).status, 201);
      t.is((await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'b@example.com', role: 'viewer' } })).status, 201);
      const full = await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'c@example.com', role: 'viewer' } });
      t.is(full.status, 400);
      t.is(full.body.error.reason, 'no_seats_left');
      const pending = await app.api('GET', `/teams/${tm.id}/invitations`, { key: owner.key });
      await app.api('DELETE', `/teams/${tm.id}/invitations/${pending.body.invitations[0].id}`, { key: owner.key });
      t.is((await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'c@example.com', role: 'viewer' } })).status, 201);
    });

    it('list: pending and unexpired, newest first, token only for owner and admin; cancel kills the token', async (t, app) => {
      const { owner, team: tm } = await team(app);
      const viewer = await join(app, tm.id, owner.key, 'viewer');
      const a = (await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'first@example.com', role: 'viewer' } })).body;
      clock.offsetMs = 1000;
      const b = (await app.api('POST', `/teams/${tm.id}/invitations`, { key: owner.key, body: { email: 'second@example.com', role: 'viewer' } })).body;
      clock.offsetMs = 0;
      const asOwner = await app.api('GET', `/teams/${tm.id}/invitations`, { key: owner.key });
      t.deepEqual(asOwner.body.invitations.map((i: any) => i.id), [b.id, a.id]);
      t.is(asOwner.body.invitations[0].token, b.token);
      const asViewer = await app.api('GET', `/teams/${tm.id}/invitations`, { key: viewer.key });
      t.is(asViewer.status, 200);
      t.false(asViewer.text.includes(b.token));
      t.false('token' in asViewer.body.invitations[0]);
      const del = await app.api('DELETE', `/teams/${tm.id}/invitations/${a.id}`, { key: owner.key });
      t.like(del.body, { success: true });
      t.is(typeof del.body.message, 'string');
      t.is((await app.api('DELETE', `/teams/${tm.id}/invitations/${a.id}`, { key: owner.key })).status, 404);
      const invitee = await app.user();
      t.is((await app.api('POST', `/invitations/${a.token}/accept`, { key: invitee.key })).status, 404);
      t.is((await app.api('POST', `/invitations/${b.token}/accept`, { key: invitee.key })).status, 403, 'another email');
      t.is((await app.api('POST', '/invitations/nonsense/accept', { key: invitee.key })).status, 404);
    });

    it('roles: owner cannot be changed or removed; removing a member cancels their pending invitations', async (t, app) => {
      const { owner, team: tm } = await team(app);
      const admin = await join(app, tm.id, owner.key, 'admin');
      const members = (await app.api('GET', `/teams/${tm.id}/members`, { key: admin.key })).body.members;
      t.deepEqual(Object.keys(members[0]).sort(), ['email', 'first_name', 'id', 'joined_at', 'last_name', 'role', 'user_id']);
      const ownerMember = members.find((m: any) => m.role === 'owner');
      const adminMember = members.find((m: any) => m.role === 'admin');
      t.is((await app.api('PUT', `/teams/${tm.id}/members/${ownerMember.id}`, { key: admin.key, body: { role: 'viewer' } })).status, 403);
      t.is((await app.api('DELETE', `/teams/${tm.id}/members/${ownerMember.id}`, { key: admin.key })).status, 403);
      t.is((await app.api('PUT', `/teams/${tm.id}/members/${adminMember.id}`, { key: owner.key, body: { role: 'owner' } })).status, 400);
      const changed = await app.api('PUT', `/teams/${tm.id}/members/${adminMember.id}`, { key: owner.key, body: { role: 'editor' } });
      t.deepEqual(Object.keys(changed.body).sort(), ['id', 'joined_at', 'role', 'team_id', 'user_id']);
      t.is(changed.body.role, 'editor');
      const manualId = `inv_manual${Date.now()}`;
      await app.formloom.storage.invitations.insert({
        id: manualId, team_id: tm.id, email: admin.email, role: 'admin', invited_by: owner.id, token_hash: 'f'.repeat(64),
        token_sealed: 'x', status: 'pending', language: 'en', expires_at: '2999-01-01T00:00:00.000Z', created_at: new Date().toISOString(), updated_at: new Date().toISOString(),
      });
      const removed = await app.api('DELETE', `/teams/${tm.id}/members/${adminMember.id}`, { key: owner.key });
      t.like(removed.body, { success: true });
      const rows = await app.raw(`SELECT status FROM team_invitations WHERE id = '${manualId}'`);
      t.deepEqual(rows.map((r: any) => r.status), ['cancelled']);
      t.is((await app.api('GET', `/teams/${tm.id}`, { key: admin.key })).status, 404);
    });

    it('deleting a team removes memberships; its forms stay but nobody reaches them', async (t, app) => {
      const { owner, team: tm } = await team(app);
      const editor = await join(app, tm.id, owner.key, 'editor');
      const form = await app.api('POST', '/forms', { key: editor.key, body: { title: 'Team form', team_id: tm.id } });
      t.is(form.status, 201);
      t.is(form.body.team_id, tm.id);
      const listed = await app.api('GET', `/forms?team_id=${tm.id}`, { key: owner.key });
      t.deepEqual(listed.body.forms.map((f: any) => f.team), [{ id: tm.id, name: 'Acme' }]);
      t.is((await app.api('DELETE', `/teams/${tm.id}`, { key: editor.key })).status, 403);
      t.deepEqual((await app.api('DELETE', `/teams/${tm.id}`, { key: owner.key })).body, { success: true });
      for (const key of [owner.key, editor.key]) {
        t.is((await app.api('GET', `/forms/${form.body.id}`, { key })).status, 404);
        t.is((await app.api('GET', `/teams/${tm.id}`, { key })).status, 404);
        t.is((await app.api('GET', '/forms', { key })).body.forms.filter((f: any) => f.id === form.body.id).length, 0);
      }
      const kept = await app.raw(`SELECT COUNT(*) AS n FROM forms WHERE id = '${form.body.id}'`);
      t.is(Number(kept[0].n), 1);
      const left = await app.raw(`SELECT COUNT(*) AS n FROM team_members WHERE team_id = '${tm.id}'`);
      t.is(Number(left[0].n), 0);
    });

    it('audit logs: recorded actions with who and where, filters, Enterprise only', async (t, app) => {
      const { owner, team: tm } = await team(app);
      const admin = await join(app, tm.id, owner.key, 'admin');
      const form = await app.api('POST', '/forms', { key: admin.key, body: { title: 'Audited', team_id: tm.id, published: true } });
      await app.api('DELETE', `/forms/${form.body.id}/publish`, { key: admin.key });
      await app.api('PUT', `/teams/${tm.id}`, { key: owner.key, body: { name: 'Renamed' } });
      const all = await app.api('GET', `/teams/${tm.id}/audit-logs`, { key: admin.key });
      t.is(all.status, 200);
      const actions = all.body.events.map((e: any) => e.action);
      for (const a of ['team.created', 'member.invited', 'member.joined', 'form.created', 'form.published', 'form.unpublished', 'team.renamed']) t.true(actions.includes(a), a);
      const e = all.body.events[0];
      t.deepEqual(Object.keys(e).sort(), ['action', 'details', 'id', 'ip_address', 'timestamp', 'user_email', 'user_id']);
      t.like(e, { action: 'team.renamed', user_id: owner.id, user_email: owner.email, details: { from: 'Acme', to: 'Renamed' } });
      t.regex(e.ip_address, /127\.0\.0\.1/);
      const byAction = await app.api('GET', `/teams/${tm.id}/audit-logs?action=form.published`, { key: owner.key });
      t.deepEqual(byAction.body.events.map((x: any) => x.action), ['form.published']);
      const byUser = await app.api('GET', `/teams/${tm.id}/audit-logs?user_id=${admin.id}`, { key: owner.key });
      t.true(byUser.body.events.every((x: any) => x.user_id === admin.id));
      t.is((await app.api('GET', `/teams/${tm.id}/audit-logs?until=2000-01-01`, { key: owner.key })).body.total, 0);
      t.is((await app.api('GET', `/teams/${tm.id}/audit-logs?per_page=500`, { key: owner.key })).body.per_page, 100);
      t.is((await app.api('GET', `/teams/${tm.id}/audit-logs?since=soon`, { key: owner.key })).status, 400);
      const pro = await team(app, 'pro', 'Pro team');
      const refused = await app.api('GET', `/teams/${pro.team.id}/audit-logs`, { key: pro.owner.key });
      t.is(refused.status, 403);
    });

    it('branding: defaults, partial updates, validation, delete', async (t, app) => {
      const { owner, team: tm } = await team(app);
      const empty = { logo_url: null, primary_color: null, background_color: null, text_color: null, font_family: null, footer_text: null };
      t.deepEqual((await app.api('GET', `/teams/${tm.id}/branding`, { key: owner.key })).body, empty);
      const put = await app.api('PUT', `/teams/${tm.id}/branding`, { key: owner.key, body: { primary_color: '#ff0000', footer_text: 'Hi' } });
      t.deepEqual(put.body, { ...empty, primary_color: '#ff0000', footer_text: 'Hi' });
      const more = await app.api('PUT', `/teams/${tm.id}/branding`, { key: owner.key, body: { font_family: 'Inter' } });
      t.deepEqual(more.body, { ...empty, primary_color: '#ff0000', footer_text: 'Hi', font_family: 'Inter' });
      t.is((await app.api('PUT', `/teams/${tm.id}/branding`, { key: owner.key, body: { primary_color: 'red' } })).status, 400);
      t.is((await app.api('PUT', `/teams/${tm.id}/branding`, { key: owner.key, body: { logo: 'x' } })).status, 400);
      t.deepEqual((await app.api('DELETE', `/teams/${tm.id}/branding`, { key: owner.key })).body, { success: true });
      t.deepEqual((await app.api('GET', `/teams/${tm.id}/branding`, { key: owner.key })).body, empty);
    });
  },
  { clock, mailer, serial: true },
);
