import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createFormloom } from '@formloom/core';
import { forEachDb, type TestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, PASSWORD, signUpByMail, until } from '../helpers/session-client';
import { createFormloomRouter } from '../../src';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

const mails = mailbox();

/** Signs a new person up (open mode) and returns their browser. */
async function signedUp(app: TestApp, t: { is: (a: unknown, b: unknown, m?: string) => void }, email = newEmail()) {
  const b = new Browser(app);
  const res = await signUpByMail(app, mails, b, { email, password: PASSWORD, first_name: 'Ada' });
  t.is(res.status, 201, JSON.stringify(res.body));
  return { b, email, user: res.body.user };
}

forEachDb(
  test,
  (it) => {
    it('sign up by mail opens a session: HttpOnly SameSite=Lax cookie, csrf_token, the session and account readable with it', async (t, app) => {
      const email = newEmail();
      const b = new Browser(app);
      const res = await signUpByMail(app, mails, b, { email: email.toUpperCase(), password: PASSWORD, first_name: 'Ada', last_name: 'Lovelace' });
      t.is(res.status, 201);
      t.like(res.body.user, { email, first_name: 'Ada', last_name: 'Lovelace', plan: 'free' });
      t.is(typeof res.body.csrf_token, 'string');
      const cookie = res.headers.get('set-cookie')!;
      t.regex(cookie, /^formloom_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
      t.notRegex(cookie, /Secure/, 'the public URL is http');
      const session = await b.call('GET', '/auth/session');
      t.is(session.status, 200);
      t.is(session.body.user.id, res.body.user.id);
      t.is(session.body.csrf_token, res.body.csrf_token);
      t.true(Date.parse(session.body.session.expires_at) > Date.now() + 13 * 86_400_000);
      const account = await b.call('GET', '/account');
      t.like(account.body, { user: { id: res.body.user.id } });
      t.is(typeof account.body.is_admin, 'boolean');
      // The token is stored only as a keyed hash.
      const rows = await app.raw(`SELECT * FROM sign_in_sessions WHERE user_id = '${res.body.user.id}'`);
      t.is(rows.length, 1);
      t.false(JSON.stringify(rows).includes(b.cookie!));
      // A known address gets the answer of any other; its owner is told by mail (auth/address-claims.ts).
      const again = await new Browser(app).call('POST', '/auth/signup', { body: { email, password: PASSWORD } });
      t.deepEqual([again.status, again.body], [202, { sent: true }]);
      await until(() => mails.messages.some((m) => m.to === email && /Someone tried/.test(m.subject ?? '')));
      const short = await new Browser(app).call('POST', '/auth/signup', { body: { email: newEmail(), password: 'short' } });
      t.is(short.status, 400);
    });

    it('sign in with the password; a wrong password or an unknown address is 401 invalid_credentials', async (t, app) => {
      const { email } = await signedUp(app, t);
      const b = new Browser(app);
      for (const body of [{ email, password: 'wrong password!' }, { email: newEmail('nobody'), password: PASSWORD }]) {
        const res = await b.call('POST', '/auth/signin', { body });
        t.is(res.status, 401);
        t.like(res.body.error, { code: 'UNAUTHORIZED', reason: 'invalid_credentials' });
        t.is(res.headers.get('set-cookie'), null);
      }
      const ok = await b.call('POST', '/auth/signin', { body: { email: email.toUpperCase(), password: PASSWORD } });
      t.is(ok.status, 200);
      t.is(ok.body.user.email, email);
      t.is((await b.call('GET', '/auth/session')).status, 200);
    });

    it('sign out ends the session (401 after, even with the old cookie); sign out everywhere ends all', async (t, app) => {
      const { b, email } = await signedUp(app, t);
      const old = b.cookie;
      const out = await b.call('POST', '/auth/signout');
      t.is(out.status, 204);
      t.regex(out.headers.get('set-cookie')!, /formloom_session=; .*Max-Age=0/);
      b.cookie = old;
      t.is((await b.call('GET', '/auth/session')).status, 401);
      t.is((await b.call('GET', '/forms')).status, 401);

      const phone = new Browser(app);
      const laptop = new Browser(app);
      await phone.call('POST', '/auth/signin', { body: { email, password: PASSWORD } });
      await laptop.call('POST', '/auth/signin', { body: { email, password: PASSWORD } });
      const list = await laptop.call('GET', '/account/sessions');
      t.is(list.body.sessions.length, 2);
      t.is(list.body.sessions.filter((s: { current: boolean }) => s.current).length, 1);
      t.is((await laptop.call('POST', '/auth/signout-all')).status, 204);
      t.is((await phone.call('GET', '/auth/session')).status, 401);
      t.is((await laptop.call('GET', '/forms')).status, 401);
    });

    it('the session works on existing routes with the same authorization as a key, forms and voice alike', async (t, app) => {
      const { b, user } = await signedUp(app, t);
      const created = await b.call('POST', '/forms', { body: { title: 'Made in the browser' } });
      t.is(created.status, 201);
      t.is((await b.call('GET', `/forms/${created.body.id}`)).body.title, 'Made in the browser');
      t.is((await b.call('PUT', `/forms/${created.body.id}`, { body: { title: 'Renamed' } })).status, 200);
      // The same person's key sees the same form; another person's session or key does not.
      const key = await app.formloom.accounts.createKey(user.id);
      t.is((await app.api('GET', `/forms/${created.body.id}`, { key: key.api_key })).body.title, 'Renamed');
      const other = await signedUp(app, t);
      const denied = await other.b.call('GET', `/forms/${created.body.id}`);
      t.is(denied.status, 403);
      t.is((await other.b.call('DELETE', `/forms/${created.body.id}`)).status, 403);
      // Voice routes take the session too (a forms key does not).
      t.is((await b.call('GET', '/voice/generations')).status, 200);
      t.is((await app.api('GET', '/voice/generations', { key: key.api_key })).status, 403);
    });

    it('CSRF: a cookie-authenticated change needs X-Formloom-CSRF and the public Origin, else 403 csrf_failed', async (t, app) => {
      const { b } = await signedUp(app, t);
      const tries = [
        { csrf: false, origin: undefined, label: 'no header' },
        { csrf: true, origin: 'https://evil.example', label: 'wrong Origin' },
        { csrf: true, origin: null, label: 'no Origin' },
      ];
      for (const x of tries) {
        const res = await b.call('POST', '/forms', { body: { title: 'forged' }, csrf: x.csrf, origin: x.origin });
        t.is(res.status, 403, x.label);
        t.like(res.body.error, { code: 'FORBIDDEN', reason: 'csrf_failed' }, x.label);
      }
      const wrong = await b.call('POST', '/forms', { body: { title: 'forged' }, headers: { 'x-formloom-csrf': 'A'.repeat(43) } });
      t.is(wrong.status, 403, 'another token');
      const list = await b.call('GET', '/forms', { csrf: false, origin: null });
      t.is(list.status, 200, 'reads need neither');
      t.is(list.body.forms.length, 0, 'nothing was written');
      // Sign-in itself checks Origin (login CSRF).
      const signin = await new Browser(app).call('POST', '/auth/signin', { body: { email: 'a@b.c', password: 'x' }, origin: 'https://evil.example' });
      t.like(signin.body.error, { code: 'FORBIDDEN', reason: 'csrf_failed' });
    });

    it('session fixation: a cookie set before sign-in is not adopted; sign-in issues a new token', async (t, app) => {
      const { email } = await signedUp(app, t);
      const b = new Browser(app);
      const planted = 'P'.repeat(43);
      b.cookie = planted;
      t.is((await b.call('GET', '/auth/session')).status, 401);
      const res = await b.call('POST', '/auth/signin', { body: { email, password: PASSWORD } });
      t.is(res.status, 200);
      t.truthy(b.cookie);
      t.not(b.cookie, planted);
      const attacker = new Browser(app);
      attacker.cookie = planted;
      t.is((await attacker.call('GET', '/auth/session')).status, 401);
    });

    it('a bearer key wins over the cookie; key authentication is unchanged', async (t, app) => {
      const { b, user } = await signedUp(app, t);
      const bad = await b.call('GET', '/forms', { key: 'fl_nonsense' });
      t.is(bad.status, 401, 'a wrong key is not rescued by a valid cookie');
      const key = await app.formloom.accounts.createKey(user.id, { scope: 'voice' });
      const scoped = await b.call('GET', '/forms', { key: key.api_key });
      t.is(scoped.status, 403, 'the key decides: a voice key on a forms route');
      // With a key, no CSRF header or Origin is needed.
      const other = await app.user();
      const made = await app.api('POST', '/forms', { key: other.key, body: { title: 'by key' } });
      t.is(made.status, 201);
    });

    it('API keys from the account page: create (secret once), list, revoke', async (t, app) => {
      const { b } = await signedUp(app, t);
      const made = await b.call('POST', '/account/api-keys', { body: { name: 'CI', scope: 'forms', monthly_limit: 1000 } });
      t.is(made.status, 201);
      t.like(made.body, { name: 'CI', scope: 'forms', monthly_limit: 1000 });
      t.regex(made.body.api_key, /^fl_/);
      t.is((await app.api('GET', '/forms', { key: made.body.api_key })).status, 200);
      const list = await b.call('GET', '/account/api-keys');
      t.is(list.body.api_keys.length, 1);
      t.like(list.body.api_keys[0], { key_id: made.body.key_id, name: 'CI', revoked_at: null });
      t.false(JSON.stringify(list.body).includes(made.body.api_key.split('_')[2]));
      t.is((await b.call('POST', '/account/api-keys', { body: { scope: 'admin' } })).status, 400);
      // Key management needs the session, not a key.
      t.is((await app.api('GET', '/account/api-keys', { key: made.body.api_key })).status, 401);
      const other = await signedUp(app, t);
      t.is((await other.b.call('DELETE', `/account/api-keys/${made.body.key_id}`)).status, 404);
      t.is((await b.call('DELETE', `/account/api-keys/${made.body.key_id}`)).status, 204);
      t.is((await app.api('GET', '/forms', { key: made.body.api_key })).status, 401);
      t.truthy((await b.call('GET', '/account/api-keys')).body.api_keys[0].revoked_at);
    });

    it('profile and password change: other sessions end, this one continues with its CSRF token', async (t, app) => {
      const { b, email } = await signedUp(app, t);
      const other = new Browser(app);
      await other.call('POST', '/auth/signin', { body: { email, password: PASSWORD } });
      const patched = await b.call('PATCH', '/account', { body: { first_name: 'Grace', last_name: 'Hopper' } });
      t.like(patched.body.user, { first_name: 'Grace', last_name: 'Hopper' });
      const wrong = await b.call('POST', '/account/password', { body: { current_password: 'not it at all', new_password: 'a brand new secret' } });
      t.is(wrong.status, 403);
      const changed = await b.call('POST', '/account/password', { body: { current_password: PASSWORD, new_password: 'a brand new secret' } });
      t.is(changed.status, 200);
      t.is(typeof changed.body.csrf_token, 'string');
      t.is((await b.call('GET', '/auth/session')).status, 200);
      t.is((await other.call('GET', '/auth/session')).status, 401);
      t.is((await new Browser(app).call('POST', '/auth/signin', { body: { email, password: PASSWORD } })).status, 401);
      t.is((await new Browser(app).call('POST', '/auth/signin', { body: { email, password: 'a brand new secret' } })).status, 200);
    });

    it('a cookie made under another secret key is refused (401) by an instance sharing the database', async (t, app) => {
      const { b } = await signedUp(app, t);
      const mountOn = async (secretKey: string) => {
        const formloom = createFormloom({ storage: app.formloom.storage, config: { secretKey } });
        const host = express();
        host.use('/api/v1', createFormloomRouter({ formloom, sessions: { signup: 'open' }, rateLimits: false }));
        const server = await new Promise<import('node:http').Server>((resolve) => {
          const s = host.listen(0, '127.0.0.1', () => resolve(s));
        });
        t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
        return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
      };
      const call = (base: string) => fetch(`${base}/auth/session`, { headers: { cookie: `formloom_session=${b.cookie}` } });
      t.is((await call(await mountOn('test-secret-key'))).status, 200, 'the same secret on the same database');
      t.is((await call(await mountOn('another-secret-key'))).status, 401, 'another secret');
    });

    it('the OpenAPI document declares the bearer key and the session cookie', async (t, app) => {
      const doc = (await app.api('GET', '/openapi.json')).body;
      t.like(doc.components.securitySchemes, { apiKey: { type: 'http', scheme: 'bearer' }, sessionCookie: { type: 'apiKey', in: 'cookie', name: 'formloom_session' } });
      t.deepEqual(doc.paths['/forms'].get.security, [{ apiKey: [] }, { sessionCookie: [] }]);
      t.deepEqual(doc.paths['/auth/signin'].post.security, []);
      t.deepEqual(doc.paths['/account/api-keys'].post.security, [{ sessionCookie: [] }], 'keys cannot mint keys');
      t.deepEqual(doc.paths['/account'].get.security, [{ apiKey: [] }, { sessionCookie: [] }]);
      t.deepEqual(doc.paths['/auth/session'].get.security, [{ sessionCookie: [] }]);
    });
  },
  { sessions: { signup: 'open' }, mailer: mails, rateLimits: { failedAuth: { limit: 10_000 } }, config: CHEAP_PASSWORDS },
);
