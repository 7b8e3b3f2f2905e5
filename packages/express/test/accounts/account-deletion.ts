import test from '../helpers/bounded-test';
import JSZip from 'jszip';
import { forEachDb, type TestApp } from '../helpers/app';
import { tracesOf } from '../helpers/traces';
import { Browser, mailbox, newEmail, PASSWORD, signUpByMail } from '../helpers/session-client';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/*
 * Deleting an account (docs/accounts.md, "Deleting an account"): the person sees what goes, proves it is them,
 * and their forms, responses, files, keys, sessions and passkeys go; a team with other members must be given away
 * first; team forms stay with their team; the audit trail keeps a tombstone. The admin deletes someone else.
 */

const mails = mailbox();

async function person(app: TestApp, tt: { is: (a: unknown, b: unknown, m?: string) => void }) {
  const b = new Browser(app);
  const email = newEmail('del');
  const res = await signUpByMail(app, mails, b, { email, password: PASSWORD, first_name: 'Ada' });
  tt.is(res.status, 201, JSON.stringify(res.body));
  const key = (await b.call('POST', '/account/api-keys', { body: { scope: 'forms' } })).body.api_key as string;
  return { b, email, id: res.body.user.id as string, key };
}

forEachDb(
  test,
  (t) => {
    t('a person sees what goes, types their password, and everything of theirs goes; team forms stay; a tombstone stays', async (tt, app) => {
      // The first account is the admin's; the people below are not.
      const admin = await person(app, tt);
      const ada = await person(app, tt);
      const bob = await person(app, tt);
      await app.api('PATCH', `/admin/users/${ada.id}`, { key: admin.key, body: { plan: 'enterprise' } });
      await app.api('PATCH', `/admin/users/${bob.id}`, { key: admin.key, body: { plan: 'enterprise' } });

      const own = (await app.api('POST', '/forms', { key: ada.key, body: { title: 'Mine', published: true, questions: [{ type: 'short_text', title: 'Q' }] } })).body;
      tt.is((await app.api('POST', `/public/forms/${own.slug}/responses`, { body: { answers: [{ question_id: own.questions[0].id, value: 'x' }] } })).status, 201);
      const solo = (await app.api('POST', '/teams', { key: ada.key, body: { name: 'Solo' } })).body;
      const soloForm = (await app.api('POST', '/forms', { key: ada.key, body: { title: 'Solo form', team_id: solo.id } })).body;
      // Bob's team, which Ada joins as an editor and adds a form to: that form stays with the team.
      const shared = (await app.api('POST', '/teams', { key: bob.key, body: { name: 'Shared' } })).body;
      const invite = await app.api('POST', `/teams/${shared.id}/invitations`, { key: bob.key, body: { email: ada.email, role: 'editor' } });
      tt.is(invite.status, 201, invite.text);
      const token = invite.body.token ?? invite.body.invitation?.token;
      tt.truthy(token, invite.text);
      tt.is((await app.api('POST', `/invitations/${token}/accept`, { key: ada.key })).status, 200);
      const teamForm = (await app.api('POST', '/forms', { key: ada.key, body: { title: 'Team form', team_id: shared.id } })).body;

      // Export my data first: a ZIP of JSON documents, never a secret.
      const exported = await fetch(`${app.url}/api/v1/account/export`, { headers: { cookie: `formloom_session=${ada.b.cookie}` } });
      tt.is(exported.status, 200);
      tt.is(exported.headers.get('content-type'), 'application/zip');
      tt.regex(exported.headers.get('content-disposition') ?? '', /attachment; filename="formloom-del.*\.zip"/);
      const zip = await JSZip.loadAsync(Buffer.from(await exported.arrayBuffer()));
      tt.deepEqual(Object.keys(zip.files).sort(), ['README.txt', 'account.json', 'forms.json', 'voice.json']);
      const account = JSON.parse(await zip.file('account.json')!.async('string'));
      tt.like(account, { user: { id: ada.id, email: ada.email }, is_admin: false });
      tt.is(account.api_keys.length, 1);
      tt.deepEqual(account.teams.map((x: any) => x.name).sort(), ['Shared', 'Solo']);
      const text = JSON.stringify(account);
      tt.false(text.includes(ada.key), 'never the key itself');
      tt.false(/password_hash|token_hash/.test(text));
      const formsDoc = JSON.parse(await zip.file('forms.json')!.async('string'));
      tt.deepEqual(formsDoc.map((f: any) => [f.title, f.response_count, f.questions.length]), [['Mine', 1, 1]]);
      tt.is((await app.api('GET', '/account/export', { key: ada.key })).status, 401, 'a session, not a key');

      const plan = await ada.b.call('GET', '/account/deletion');
      tt.is(plan.status, 200, plan.text);
      tt.like(plan.body, { forms: 2, responses: 1, signed_contracts: 0, teams_deleted: [{ id: solo.id, name: 'Solo' }], teams_left: [{ id: shared.id, name: 'Shared' }], blockers: [] });

      const adminBlocked = await admin.b.call('DELETE', '/account', { body: { password: PASSWORD } });
      tt.is(adminBlocked.status, 409);
      tt.like(adminBlocked.body.error, { reason: 'admin_must_hand_over' });
      // Bob cannot leave while his team has Ada in it.
      const bobPlan = await bob.b.call('GET', '/account/deletion');
      tt.like(bobPlan.body.blockers[0], { reason: 'team_has_members', team: { id: shared.id } });

      tt.is((await ada.b.call('DELETE', '/account', { body: {} })).status, 403, 'the password is asked');
      const wrong = await ada.b.call('DELETE', '/account', { body: { password: 'not it at all' } });
      tt.like(wrong.body.error, { reason: 'invalid_credentials', field: 'password' });
      tt.is((await app.api('DELETE', '/account', { key: ada.key, body: { password: PASSWORD } })).status, 401, 'never with a key alone: a session');
      tt.is((await ada.b.call('DELETE', '/account', { body: { password: PASSWORD, extra: true } })).status, 400);
      tt.is((await app.api('GET', `/forms/${own.id}`, { key: ada.key })).status, 200, 'nothing went on a refusal');

      const done = await ada.b.call('DELETE', '/account', { body: { password: PASSWORD } });
      tt.is(done.status, 200, done.text);
      tt.deepEqual(done.body, { deleted: true, forms: 2, responses: 1, teams_deleted: 1 });
      tt.regex(done.headers.get('set-cookie') ?? '', /formloom_session=;/, 'the cookie is cleared');

      tt.is((await ada.b.call('GET', '/account')).status, 401, 'the session is gone');
      tt.is((await app.api('GET', '/forms', { key: ada.key })).status, 401, 'the key is gone');
      tt.is((await app.api('GET', `/forms/${own.id}`, { key: admin.key })).status, 404);
      tt.is((await app.api('GET', `/forms/${soloForm.id}`, { key: admin.key })).status, 404);
      tt.is((await app.api('GET', `/forms/${teamForm.id}`, { key: bob.key })).status, 200, 'the team form stays with the team');
      for (const table of ['users', 'api_keys', 'sign_in_sessions', 'user_passwords', 'team_members']) {
        const column = table === 'users' ? 'id' : 'user_id';
        tt.deepEqual(await app.raw(`SELECT 1 FROM ${table} WHERE ${column} = '${ada.id}'`), [], table);
      }
      // Nothing else names them: not the sign-up's token, not the invitation they accepted, not the address on their
      // audit entries; their id stays on those (the tombstone) and on the form they left with the team.
      const byAddress = await tracesOf(app, new RegExp(ada.email.replace(/[.+]/g, '\\$&'), 'i'));
      tt.deepEqual(Object.keys(byAddress), ['audit_logs']);
      tt.true(byAddress.audit_logs!.every((row) => row.includes('"action":"member.invited"')), 'only the inviter\'s own entry, which names whom they invited');
      tt.deepEqual(Object.keys(await tracesOf(app, new RegExp(ada.id))).sort(), ['audit_logs', 'forms']);
      const audit = await app.api('GET', `/teams/${shared.id}/audit-logs?action=member.removed`, { key: bob.key });
      tt.like(audit.body.events[0], { user_id: ada.id, details: { user_id: ada.id, account_deleted: true } });
      const signIn = await new Browser(app).call('POST', '/auth/signin', { body: { email: ada.email, password: PASSWORD } });
      tt.is(signIn.status, 401);

      // The admin deletes Bob (his team is his alone again); not themselves from here; others get 403.
      tt.is((await app.api('DELETE', `/admin/users/${bob.id}`, { key: bob.key })).status, 403);
      tt.like((await app.api('DELETE', `/admin/users/${admin.id}`, { key: admin.key })).body.error, { reason: 'own_account' });
      const byAdmin = await app.api('DELETE', `/admin/users/${bob.id}`, { key: admin.key });
      tt.is(byAdmin.status, 200, byAdmin.text);
      tt.like(byAdmin.body, { deleted: true, teams_deleted: 1 });
      tt.is((await app.api('GET', `/admin/users/${bob.id}`, { key: admin.key })).status, 404);
      tt.deepEqual((await admin.b.call('GET', '/account/deletion')).body.blockers, [], 'the last person may go');
    });
  },
  { sessions: { signup: 'open' }, mailer: mails, rateLimits: { failedAuth: { limit: 10_000 } }, config: CHEAP_PASSWORDS },
);
