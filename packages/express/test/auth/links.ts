import test from '../helpers/bounded-test';
import { forEachDb, type TestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, PASSWORD, signUpByMail } from '../helpers/session-client';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

const mails = mailbox();

async function signedUp(app: TestApp, email = newEmail()) {
  app.formloom.worker.start(); // its mails wake it as they are queued: no fast poll
  const b = new Browser(app);
  const res = await signUpByMail(app, mails, b, { email });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return { b, email, user: res.body.user };
}

forEachDb(
  test,
  (it) => {
    it('email verification: the mail links to /auth/verify; the token works once; followed from the account\'s own session, it keeps that session', async (t, app) => {
      const { b, email, user } = await signedUp(app);
      // An account whose address is not proven yet (as the first account or an invitation's sign-up is).
      await app.raw(`UPDATE users SET email_verified = ${app.kind === 'postgres' ? 'false' : '0'} WHERE id = '${user.id}'`);
      t.is((await b.call('POST', '/auth/verify-email/resend')).status, 202);
      const token = await mails.linkTo(email, 'auth/verify');
      t.true(mails.messages.some((m) => m.to === email && (m.text ?? '').includes(`${app.url}/auth/verify#token=`)));
      const verified = await b.call('POST', '/auth/verify-email', { body: { token } });
      t.is(verified.status, 200);
      t.true(verified.body.user.email_verified);
      t.true((await b.call('GET', '/auth/session')).body.user.email_verified);
      const again = await new Browser(app).call('POST', '/auth/verify-email', { body: { token } });
      t.is(again.status, 400);
      t.like(again.body.error, { code: 'BAD_REQUEST', reason: 'invalid_token' });
      // Tokens are stored as keyed hashes only.
      t.false(JSON.stringify(await app.raw('SELECT * FROM one_time_tokens')).includes(token));
      t.is((await b.call('POST', '/auth/verify-email/resend')).status, 202, 'nothing to send once verified');
    });

    it('sign-in link: 202 whatever the address; the link signs in once; a used or made-up token is 400 invalid_token', async (t, app) => {
      const { email } = await signedUp(app);
      const unknown = await new Browser(app).call('POST', '/auth/email-link', { body: { email: newEmail('nobody') } });
      t.is(unknown.status, 202);
      t.deepEqual(unknown.body, { sent: true });
      const asked = await new Browser(app).call('POST', '/auth/email-link', { body: { email: email.toUpperCase() } });
      t.deepEqual([asked.status, asked.body], [202, { sent: true }]);
      const token = await mails.linkTo(email, 'auth/link');
      const b = new Browser(app);
      const res = await b.call('POST', '/auth/email-link/verify', { body: { token } });
      t.is(res.status, 200);
      t.is(res.body.user.email, email);
      t.true(res.body.user.email_verified, 'the link proves the mailbox');
      t.is((await b.call('GET', '/auth/session')).status, 200);
      const used = await new Browser(app).call('POST', '/auth/email-link/verify', { body: { token } });
      t.like(used.body.error, { code: 'BAD_REQUEST', reason: 'invalid_token' });
      t.is((await new Browser(app).call('POST', '/auth/email-link/verify', { body: { token: 'x'.repeat(43) } })).status, 400);
      t.is((await new Browser(app).call('POST', '/auth/email-link/verify', { body: { token: 'short' } })).status, 400);
    });

    it('a link token is consumed by exactly one of concurrent callers', async (t, app) => {
      const { email } = await signedUp(app);
      await new Browser(app).call('POST', '/auth/email-link', { body: { email } });
      const token = await mails.linkTo(email, 'auth/link');
      const results = await Promise.all(Array.from({ length: 6 }, () => new Browser(app).call('POST', '/auth/email-link/verify', { body: { token } })));
      t.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400, 400, 400, 400]);
    });

    it('password reset: the link sets a new password, ends every other session, and signs in', async (t, app) => {
      const { b, email } = await signedUp(app);
      t.deepEqual((await new Browser(app).call('POST', '/auth/password-reset', { body: { email: newEmail('nobody') } })).body, { sent: true });
      t.is((await new Browser(app).call('POST', '/auth/password-reset', { body: { email } })).status, 202);
      const token = await mails.linkTo(email, 'auth/reset');
      const short = await new Browser(app).call('POST', '/auth/password-reset/complete', { body: { token, password: 'short' } });
      t.is(short.status, 400, 'too short: nothing used');
      const fresh = new Browser(app);
      const done = await fresh.call('POST', '/auth/password-reset/complete', { body: { token, password: 'a whole new password' } });
      t.is(done.status, 200);
      t.is(done.body.user.email, email);
      t.is((await fresh.call('GET', '/auth/session')).status, 200);
      t.is((await b.call('GET', '/auth/session')).status, 401, 'the old session ended');
      t.is((await new Browser(app).call('POST', '/auth/signin', { body: { email, password: PASSWORD } })).status, 401);
      t.is((await new Browser(app).call('POST', '/auth/signin', { body: { email, password: 'a whole new password' } })).status, 200);
      const reused = await new Browser(app).call('POST', '/auth/password-reset/complete', { body: { token, password: 'yet another password' } });
      t.like(reused.body.error, { reason: 'invalid_token' });
    });

    it('an expired link is refused: sign-in links last 15 minutes', async (t, app) => {
      const { email, user } = await signedUp(app);
      await new Browser(app).call('POST', '/auth/email-link', { body: { email } });
      const token = await mails.linkTo(email, 'auth/link');
      const [row] = await app.raw(`SELECT created_at, expires_at FROM one_time_tokens WHERE purpose = 'signin_link' AND user_id = '${user.id}'`);
      t.is(Date.parse(row.expires_at) - Date.parse(row.created_at), 15 * 60_000);
      // The row's expiry moved into the past, as 15 minutes later.
      await app.raw(`UPDATE one_time_tokens SET expires_at = '2000-01-01T00:00:00.000Z' WHERE purpose = 'signin_link' AND user_id = '${user.id}'`);
      t.like((await new Browser(app).call('POST', '/auth/email-link/verify', { body: { token } })).body.error, { reason: 'invalid_token' });
    });
  },
  { sessions: { signup: 'open' }, mailer: mails, rateLimits: { failedAuth: { limit: 10_000 } }, config: CHEAP_PASSWORDS },
);
