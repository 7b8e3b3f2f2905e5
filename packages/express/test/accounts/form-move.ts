import test from '../helpers/bounded-test';
import { forEachDb, type TestApp } from '../helpers/app';

/*
 * Moving and copying a form between teams and the caller's own forms (POST /forms/:id/move and /copy,
 * docs/decisions.md, Teams, "Moving and copying forms"), on SQLite and PostgreSQL: the permission matrix of
 * every role in the form's team against every role in the target team, the audit entries in both teams,
 * the form kept whole (id, address, responses) by a move, and the 4xx of bad input.
 */

const ROLES = ['owner', 'admin', 'editor', 'viewer'] as const;
type Role = (typeof ROLES)[number];
const MAY_REMOVE: Role[] = ['owner', 'admin'];
const MAY_CREATE: Role[] = ['owner', 'admin', 'editor'];

type User = Awaited<ReturnType<TestApp['user']>>;

/** A team named `name` in which `who` has `role` (the team's owner when `role` is owner). */
async function teamWith(app: TestApp, who: User, role: Role, name: string): Promise<{ id: string; ownerKey: string }> {
  const owner = role === 'owner' ? who : await app.user('enterprise');
  const team = await app.api('POST', '/teams', { key: owner.key, body: { name } });
  if (team.status !== 201) throw new Error(JSON.stringify(team.body));
  if (role !== 'owner') {
    const inv = await app.api('POST', `/teams/${team.body.id}/invitations`, { key: owner.key, body: { email: who.email, role } });
    const ok = await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: who.key });
    if (ok.status !== 200) throw new Error(`accept: ${ok.status}`);
  }
  return { id: team.body.id, ownerKey: owner.key };
}

async function audit(app: TestApp, teamId: string, key: string) {
  const r = await app.api('GET', `/teams/${teamId}/audit-logs?per_page=100`, { key });
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  return r.body.events as Array<{ action: string; details: Record<string, unknown> }>;
}

forEachDb(test, (it) => {
  it('move and copy: every role in the form\'s team against every role in the target team', async (t, app) => {
    t.timeout(300_000);
    for (const from of ROLES) {
      for (const to of ROLES) {
        const who = await app.user('enterprise');
        const a = await teamWith(app, who, from, `From ${from}`);
        const b = await teamWith(app, who, to, `To ${to}`);
        const form = (await app.api('POST', '/forms', { key: a.ownerKey, body: { title: `Form ${from}-${to}`, team_id: a.id, questions: [{ type: 'short_text', title: 'Name' }] } })).body;

        const copied = await app.api('POST', `/forms/${form.id}/copy`, { key: who.key, body: { team_id: b.id } });
        const copyOk = MAY_CREATE.includes(to);
        t.is(copied.status, copyOk ? 201 : 403, `copy ${from} -> ${to}: ${JSON.stringify(copied.body)}`);
        if (copyOk) {
          t.is(copied.body.team_id, b.id);
          t.not(copied.body.id, form.id);
          t.is(copied.body.title, form.title);
          t.is(copied.body.questions.length, 1);
          t.is(copied.body.published, false);
        } else {
          t.is(copied.body.error.code, 'FORBIDDEN');
        }

        const moved = await app.api('POST', `/forms/${form.id}/move`, { key: who.key, body: { team_id: b.id } });
        const moveOk = MAY_REMOVE.includes(from) && MAY_CREATE.includes(to);
        t.is(moved.status, moveOk ? 200 : 403, `move ${from} -> ${to}: ${JSON.stringify(moved.body)}`);
        const read = await app.api('GET', `/forms/${form.id}`, { key: a.ownerKey === who.key ? who.key : b.ownerKey });
        if (moveOk) {
          t.is(moved.body.id, form.id);
          t.is(moved.body.team_id, b.id);
          t.is(moved.body.slug, form.slug, 'the same address');
          t.truthy(moved.headers.get('etag'));
          t.is(read.status, 200);
          const out = (await audit(app, a.id, a.ownerKey)).find((e) => e.action === 'form.moved_out');
          const inn = (await audit(app, b.id, b.ownerKey)).find((e) => e.action === 'form.moved_in');
          t.like(out?.details, { form_id: form.id, title: form.title, to_team_id: b.id, to_team_name: `To ${to}` });
          t.like(inn?.details, { form_id: form.id, title: form.title, from_team_id: a.id, from_team_name: `From ${from}` });
        } else {
          const still = await app.api('GET', `/forms/${form.id}`, { key: a.ownerKey });
          t.is(still.body.team_id, a.id, 'a refused move changes nothing');
          t.false((await audit(app, b.id, b.ownerKey)).some((e) => e.action === 'form.moved_in'));
        }
        if (copyOk) {
          t.true((await audit(app, b.id, b.ownerKey)).some((e) => e.action === 'form.copied_in' && e.details.form_id === copied.body.id));
          t.true((await audit(app, a.id, a.ownerKey)).some((e) => e.action === 'form.copied_out' && e.details.copy_id === copied.body.id));
        }
      }
    }
  });

  it('a personal form moves into a team and back, keeping its responses; outsiders and bad input get 4xx', async (t, app) => {
    const me = await app.user('enterprise');
    const team = await teamWith(app, me, 'editor', 'Editors');
    const form = (await app.api('POST', '/forms', { key: me.key, body: { title: 'Mine', published: true, questions: [{ type: 'short_text', title: 'Name' }] } })).body;
    t.is((await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] } })).status, 201);

    const into = await app.api('POST', `/forms/${form.id}/move`, { key: me.key, body: { team_id: team.id } });
    t.is(into.status, 200);
    t.is(into.body.team_id, team.id);
    t.true((await audit(app, team.id, team.ownerKey)).some((e) => e.action === 'form.moved_in' && e.details.from_team_id === null));
    t.is((await app.api('GET', `/forms/${form.id}/responses`, { key: team.ownerKey })).body.total, 1, 'responses go with it');
    // Now a team form where I am an editor: moving it out needs owner or admin.
    const back = await app.api('POST', `/forms/${form.id}/move`, { key: me.key, body: { team_id: null } });
    t.is(back.status, 403);
    const byOwner = await app.api('POST', `/forms/${form.id}/move`, { key: team.ownerKey, body: { team_id: null } });
    t.is(byOwner.status, 200);
    t.is(byOwner.body.team_id, null);
    t.true((await audit(app, team.id, team.ownerKey)).some((e) => e.action === 'form.moved_out' && e.details.to_team_id === null));
    t.is((await app.api('GET', `/forms/${form.id}`, { key: me.key })).status, 403, 'now the team owner\'s own form');
    // Already there: unchanged, 200.
    t.is((await app.api('POST', `/forms/${form.id}/move`, { key: team.ownerKey, body: { team_id: null } })).status, 200);

    const stranger = await app.user('enterprise');
    const theirs = (await app.api('POST', '/forms', { key: stranger.key, body: { title: 'Theirs' } })).body;
    const notMine = await app.api('POST', `/forms/${theirs.id}/move`, { key: me.key, body: { team_id: team.id } });
    t.is(notMine.status, 403);
    const otherTeam = await app.api('POST', '/teams', { key: stranger.key, body: { name: 'Elsewhere' } });
    const mine = (await app.api('POST', '/forms', { key: me.key, body: { title: 'Mine too' } })).body;
    const outsider = await app.api('POST', `/forms/${mine.id}/move`, { key: me.key, body: { team_id: otherTeam.body.id } });
    t.is(outsider.status, 404, 'a team the caller is not in is not revealed');
    t.is((await app.api('POST', `/forms/${mine.id}/copy`, { key: me.key, body: { team_id: otherTeam.body.id } })).status, 404);
    t.is((await app.api('POST', '/forms/frm_missing/move', { key: me.key, body: { team_id: null } })).status, 404);
    for (const body of [{}, { team_id: 5 }, { team_id: '' }, { team_id: null, title: 'x' }, 'null']) {
      const bad = await app.api('POST', `/forms/${mine.id}/move`, { key: me.key, body });
      t.is(bad.status, 400, JSON.stringify(body));
      t.is(bad.body.error.code, 'BAD_REQUEST');
    }
    t.is((await app.api('POST', `/forms/${mine.id}/copy`, { key: me.key, body: { team_id: 7 } })).status, 400);
    // A copy into my own forms, beside the source: "Copy of".
    const own = await app.api('POST', `/forms/${mine.id}/copy`, { key: me.key, body: { team_id: null } });
    t.is(own.status, 201);
    t.is(own.body.title, 'Copy of Mine too');
  });
});
