import test from '../helpers/bounded-test';
import type { SignupMode } from '@formloom/core';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, PASSWORD, signUpByMail, until } from '../helpers/session-client';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/** A fresh, empty instance in `mode` (each test needs its own: "the first account" is per instance). */
const mails = mailbox();

async function instance(t: { teardown(fn: () => Promise<void>): void }, kind: (typeof DB_KINDS)[number], mode: SignupMode, rateLimits?: object) {
  const app = await startTestApp(kind, { sessions: { signup: mode }, mailer: mails, rateLimits: rateLimits ?? { failedAuth: { limit: 10_000 } }, config: CHEAP_PASSWORDS });
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
    t.deepEqual((await app.api('GET', '/auth/config')).body, { signup: 'closed', has_users: false, passkeys: false, email_links: true }, 'no passkeys on an IP address');
    app.formloom.config.publicUrl = app.url.replace('127.0.0.1', 'localhost');
    t.true((await app.api('GET', '/auth/config')).body.passkeys);
    app.formloom.config.publicUrl = app.url;
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

  test(`[${kind}] open: anyone signs up (by mail after the first account); only the first is admin`, async (t) => {
    const app = await instance(t, kind, 'open');
    const first = await signUp(app, { email: newEmail() });
    t.is(first.res.status, 201, 'the first account of an empty instance at once');
    const b = new Browser(app);
    const second = await signUpByMail(app, mails, b, { email: newEmail() });
    t.is(second.status, 201);
    t.true(second.body.user.email_verified, 'the mailed link proved the address');
    t.true((await first.b.call('GET', '/account')).body.is_admin);
    t.false((await b.call('GET', '/account')).body.is_admin);
  });

  test(`[${kind}] concurrent first sign-ups on a closed instance: exactly one gets in`, async (t) => {
    const app = await instance(t, kind, 'closed');
    const results = await Promise.all(Array.from({ length: 4 }, () => signUp(app, { email: newEmail('race') })));
    t.deepEqual(results.map((r) => r.res.status).sort(), [201, 403, 403, 403]);
    const { total } = await app.formloom.storage.users.list({ offset: 0, limit: 10 });
    t.is(total, 1, 'the refused ones wrote nothing');
  });

  test(`[${kind}] invite: invited addresses sign up with the invitation's token and join; without it they are refused like others`, async (t) => {
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

    // An invited address without its token is refused like any other (docs/security.md: an address is
    // claimed only with what was mailed to it); with the token it signs up and joins.
    const later = newEmail('later');
    const inv2 = await invite(later);
    const tokenless = await signUp(app, { email: later });
    t.is(tokenless.res.status, 403);
    t.deepEqual(tokenless.res.body.error, stranger.res.body.error, 'the same answer as for an address nobody invited');
    t.is(tokenless.res.headers.get('set-cookie'), null);
    t.like((await signUp(app, { email: newEmail(), invitation_token: inv2.token })).res.body.error, { reason: 'email_mismatch' });
    const second = await signUp(app, { email: later, invitation_token: inv2.token });
    t.is(second.res.status, 201);
    t.like(second.res.body.invitation, { team_id: team.body.id });
    t.like((await signUp(app, { email: newEmail(), invitation_token: inv2.token })).res.body.error, { reason: 'invalid_invitation' });

    // Someone with an account accepts another invitation with their session, CSRF-checked.
    const other = await admin.b.call('POST', '/teams', { body: { name: 'Other crew' } });
    const inv3 = (await admin.b.call('POST', `/teams/${other.body.id}/invitations`, { body: { email: later, role: 'editor' } })).body;
    t.is((await app.api('GET', `/invitations/${inv3.token}`)).status, 200, 'the invitation page reads it');
    const forged = await second.b.call('POST', `/invitations/${inv3.token}/accept`, { csrf: false });
    t.like(forged.body.error, { reason: 'csrf_failed' });
    const accepted = await second.b.call('POST', `/invitations/${inv3.token}/accept`);
    t.is(accepted.status, 200);
    t.is(accepted.body.team.id, other.body.id);
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

  test(`[${kind}] mail-sending requests count every time: past the limit no mail is queued`, async (t) => {
    // Four: the sign-up mails too (its verification link), so it is the first request counted.
    const app = await instance(t, kind, 'open', { failedAuth: { limit: 4, windowSeconds: 600 } });
    const { res } = await signUp(app, { email: newEmail() });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const path = i % 2 ? '/auth/password-reset' : '/auth/email-link';
      statuses.push((await new Browser(app).call('POST', path, { body: { email: res.body.user.email } })).status);
    }
    t.deepEqual(statuses, [202, 202, 202, 429, 429]);
    // The links are made after the answers (auth/address-claims.ts): wait for the three.
    const links = () => app.raw(`SELECT purpose FROM one_time_tokens WHERE user_id = '${res.body.user.id}' AND purpose <> 'email_verification'`);
    await until(async () => (await links()).length >= 3);
    t.is((await links()).length, 3, 'the refused requests made no link');
  });
}
