import test from '../helpers/bounded-test';
import { forEachDb, startTestApp } from '../helpers/app';
import { createFormloomRouter } from '../../src';
import { Browser, mailbox } from '../helpers/session-client';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/** Hostile or malformed input to every sign-in endpoint: a clear 4xx in the error shape, never a 500, nothing written. */
forEachDb(
  test,
  (it) => {
    it('malformed bodies are 400 (or 401 for a refused passkey), in the error shape, and write nothing', async (t, app) => {
      const bodies: unknown[] = ['"a string"', '[1,2]', 'null', {}, { email: 42, password: ['x'] }, { email: 'x'.repeat(5000), password: 'y'.repeat(5000) }, { token: { $ne: null } }];
      const paths = ['/auth/signup', '/auth/signin', '/auth/email-link', '/auth/email-link/verify', '/auth/password-reset', '/auth/password-reset/complete', '/auth/verify-email', '/auth/passkeys/signin'];
      const users = (await app.formloom.storage.users.list({ offset: 0, limit: 1 })).total;
      for (const path of paths) {
        for (const body of bodies) {
          const res = await new Browser(app).call('POST', path, { body });
          const label = `${path} ${JSON.stringify(body).slice(0, 40)}`;
          t.true([400, 401].includes(res.status), `${label}: ${res.status}`);
          t.is(typeof res.body?.error?.code, 'string', label);
        }
      }
      t.is((await app.formloom.storage.users.list({ offset: 0, limit: 1 })).total, users);
      t.is((await app.raw('SELECT COUNT(*) AS n FROM one_time_tokens')).map((r: { n: unknown }) => Number(r.n))[0], 0);
      const garbage = await new Browser(app).call('POST', '/auth/passkeys/signin', {
        body: { challenge_id: 'c'.repeat(43), response: { id: 'abc', response: { clientDataJSON: '!!' } } },
      });
      t.is(garbage.status, 401);
      t.is(garbage.body.error.reason, 'invalid_credentials');
      // Sessions' endpoints without a session: 401, never 500.
      for (const [method, path] of [['GET', '/auth/session'], ['POST', '/auth/signout'], ['GET', '/account/api-keys'], ['DELETE', '/account/passkeys/pk_x']] as const) {
        t.is((await new Browser(app).call(method, path)).status, 401, `${method} ${path}`);
      }
      // A cookie that is not a token, or a header full of cookies, is simply no session.
      const b = new Browser(app);
      b.cookie = 'not-a-token;;==';
      t.is((await b.call('GET', '/auth/session')).status, 401);
      t.is((await new Browser(app).call('GET', '/auth/session', { headers: { cookie: 'a=1; formloom_session; b=; formloom_session=' } })).status, 401);
    });
  },
  { sessions: { signup: 'open' }, mailer: mailbox(), rateLimits: { failedAuth: { limit: 10_000 } }, config: CHEAP_PASSWORDS },
);

test('without sessions options the sign-in endpoints do not exist (404) and the document does not list them', async (t) => {
  const app = await startTestApp('sqlite');
  t.teardown(() => app.close());
  t.is((await app.api('POST', '/auth/signin', { body: { email: 'a@b.c', password: 'x' }, headers: { origin: app.url } })).status, 404);
  t.is((await app.api('GET', '/account')).status, 404);
  const doc = (await app.api('GET', '/openapi.json')).body;
  t.falsy(doc.paths['/auth/signin']);
  t.deepEqual(Object.keys(doc.components.securitySchemes), ['apiKey']);
  t.throws(() => createFormloomRouter({ formloom: app.formloom, sessions: {}, authenticate: () => null }), { message: /exclude each other/ });
});
