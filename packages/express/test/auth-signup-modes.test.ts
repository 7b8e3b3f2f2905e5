import test from 'ava';
import type { SignupMode } from '@formloom/core';
import { DB_KINDS, startTestApp, type TestApp } from './helpers/app';
import { Browser, mailbox, newEmail, PASSWORD } from './helpers/session-client';

/** A fresh, empty instance in `mode` (each test needs its own: "the first account" is per instance). */
async function instance(t: { teardown(fn: () => Promise<void>): void }, kind: (typeof DB_KINDS)[number], mode: SignupMode, rateLimits?: object) {
  const app = await startTestApp(kind, { sessions: { signup: mode }, mailer: mailbox(), rateLimits: rateLimits ?? { failedAuth: { limit: 10_000 } } });
  t.teardown(() => app.close());
  return app;
}

const signUp = (app: TestApp, body: Record<string, unknown>) => {
  const b = new Browser(app);
  return b.call('POST', '/auth/signup', { body: { password: PASSWORD, ...body } }).then((res) => ({ res, b }));
};

for (const kind of DB_KINDS) {
  test(`[${kind}] closed: the first account of an empty instance is its admin; nobody else may sign up`, async (t) => {
    const app = await instance(t, kind, 'closed');
    t.deepEqual((await app.api('GET', '/auth/config')).body, { signup: 'closed', has_users: false, passkeys: true, email_links: true });
    const first = await signUp(app, { email: newEmail('admin') });
    t.is(first.res.status, 201);
    t.like((await first.b.call('GET', '/account')).body, { is_admin: true });
    t.true((await app.api('GET', '/auth/config')).body.has_users);
    const second = await signUp(app, { email: newEmail() });
    t.is(second.res.status, 403);
    t.like(second.res.body.error, { code: 'FORBIDDEN', reason: 'signup_closed' });
    // Accounts made by the operator (CLI) sign in once they have a password.
    t.is((await app.api('GET', '/forms', { key: (await app.user()).key })).status, 200);
  });

  test(`[${kind}] open: anyone signs up; only the first is admin`, async (t) => {
    const app = await instance(t, kind, 'open');
    const first = await signUp(app, { email: newEmail() });
    const second = await signUp(app, { email: newEmail() });
    t.deepEqual([first.res.status, second.res.status], [201, 201]);
    t.true((await first.b.call('GET', '/account')).body.is_admin);
    t.false((await second.b.call('GET', '/account')).body.is_admin);
  });

  test(`[${kind}] concurrent first sign-ups on a closed instance: exactly one gets in`, async (t) => {
    const app = await instance(t, kind, 'closed');
    const results = await Promise.all(Array.from({ length: 4 }, () => signUp(app, { email: newEmail('race') })));
    t.deepEqual(results.map((r) => r.res.status).sort(), [201, 403, 403, 403]);
    const { total } = await app.formloom.storage.users.list({ offset: 0, limit: 10 });
    t.is(total, 1, 'the refused ones wrote nothing');
  });

  test(`[${kind}] invite: invited addresses sign up (with or without the token), accept the invitation; others are refused`, async (t) => {
    const app = await instance(t, kind, 'invite');
    const admin = await signUp(app, { email: newEmail('admin') });
    t.is(admin.res.status, 201);
    const stranger = await signUp(app, { email: newEmail('stranger') });
    t.like(stranger.res.body.error, { code: 'FORBIDDEN', reason: 'signup_invite_only' });

    const team = await admin.b.call('POST', '/teams', { body: { name: 'Crew' } });
    t.is(team.status, 201);
    const invite = async (email: string) => (await admin.b.call('POST', `/teams/${team.body.id}/invitations`, { body: { email, role: 'editor' } })).body;
    const withToken = newEmail('invitee');
    const inv = await invite(withToken);
    t.truthy(inv.token);
    const mismatch = await signUp(app, { email: newEmail('other'), invitation_token: inv.token });
    t.like(mismatch.res.body.error, { code: 'FORBIDDEN', reason: 'email_mismatch' });
    const joined = await signUp(app, { email: withToken, invitation_token: inv.token, first_name: 'In' });
    t.is(joined.res.status, 201);
    t.like(joined.res.body.invitation, { team_id: team.body.id, role: 'editor' });
    const members = await admin.b.call('GET', `/teams/${team.body.id}/members`);
    t.true(JSON.stringify(members.body).includes(joined.res.body.user.id));

    // An invited address may sign up without the token; it then accepts from the mail link with its session.
    const later = newEmail('later');
    const inv2 = await invite(later);
    const second = await signUp(app, { email: later });
    t.is(second.res.status, 201);
    t.is((await app.api('GET', `/invitations/${inv2.token}`)).status, 200, 'the invitation page still reads it');
    const forged = await second.b.call('POST', `/invitations/${inv2.token}/accept`, { csrf: false });
    t.like(forged.body.error, { reason: 'csrf_failed' });
    const accepted = await second.b.call('POST', `/invitations/${inv2.token}/accept`);
    t.is(accepted.status, 200);
    t.is(accepted.body.team.id, team.body.id);
    t.like((await signUp(app, { email: newEmail(), invitation_token: inv2.token })).res.body.error, { reason: 'invalid_invitation' });
  });

  test(`[${kind}] brute force on sign-in, links and resets is limited like failed API keys (429)`, async (t) => {
    const app = await instance(t, kind, 'open', { failedAuth: { limit: 5, windowSeconds: 600 } });
    const { res } = await signUp(app, { email: newEmail() });
    const email = res.body.user.email;
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await new Browser(app).call('POST', '/auth/signin', { body: { email, password: `guess number ${i}` } })).status);
    t.deepEqual(statuses.slice(0, 4), [401, 401, 401, 401]);
    t.is(statuses.at(-1), 429);
    const blocked = await new Browser(app).call('POST', '/auth/signin', { body: { email, password: PASSWORD } });
    t.is(blocked.status, 429, 'even the right password waits');
    t.truthy(blocked.headers.get('retry-after'));
    t.is((await new Browser(app).call('POST', '/auth/email-link/verify', { body: { token: 'y'.repeat(43) } })).status, 429);
    t.is((await new Browser(app).call('POST', '/auth/password-reset/complete', { body: { token: 'y'.repeat(43), password: 'long enough password' } })).status, 429);
    // Keys are judged as before: the same address's failures also stop bearer guesses.
    t.is((await app.api('GET', '/forms', { key: 'fl_wrong' })).status, 429);
  });

  test(`[${kind}] link and reset token guesses alone reach the limit`, async (t) => {
    const app = await instance(t, kind, 'open', { failedAuth: { limit: 4, windowSeconds: 600 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const path = i % 2 ? '/auth/email-link/verify' : '/auth/verify-email';
      statuses.push((await new Browser(app).call('POST', path, { body: { token: `${'z'.repeat(42)}${i}` } })).status);
    }
    t.deepEqual(statuses.slice(0, 4), [400, 400, 400, 400]);
    t.is(statuses.at(-1), 429);
  });
}
