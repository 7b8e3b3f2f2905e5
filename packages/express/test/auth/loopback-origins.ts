import test from '../helpers/bounded-test';
import { forEachDb } from '../helpers/app';
import { Browser, newEmail, PASSWORD } from '../helpers/session-client';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/*
 * The default public URL is http://127.0.0.1:<port>; a newcomer opens http://localhost:<port> (docs/accounts.md).
 * The sign-in and CSRF Origin check takes the loopback names of that same port, and nothing else.
 */
forEachDb(
  test,
  (it) => {
    it('a loopback public URL accepts localhost, 127.0.0.1 and [::1] of its port as Origin, and no other origin', async (t, app) => {
      const port = new URL(app.url).port;
      t.is(app.formloom.config.publicUrl, `http://127.0.0.1:${port}`);
      const email = newEmail();
      const b = new Browser(app);
      // The first account of the empty instance, made from http://localhost:<port> as the README's examples open it.
      const signup = await b.call('POST', '/auth/signup', { body: { email, password: PASSWORD }, origin: `http://localhost:${port}` });
      t.is(signup.status, 201, JSON.stringify(signup.body));
      const created = await b.call('POST', '/forms', { body: { title: 'From localhost' }, origin: `http://localhost:${port}` });
      t.is(created.status, 201, 'a change with the session cookie from localhost');
      for (const origin of [`http://[::1]:${port}`, `http://127.0.0.1:${port}`]) {
        const res = await new Browser(app).call('POST', '/auth/signin', { body: { email, password: PASSWORD }, origin });
        t.is(res.status, 200, origin);
      }
      for (const origin of [`http://localhost:${Number(port) + 1}`, `https://localhost:${port}`, 'http://evil.example', `http://localhost.evil.example:${port}`, null]) {
        const res = await new Browser(app).call('POST', '/auth/signin', { body: { email, password: PASSWORD }, origin });
        t.is(res.status, 403, String(origin));
        t.like(res.body.error, { reason: 'csrf_failed', message: `The Origin header must be http://127.0.0.1:${port}` });
        const change = await b.call('POST', '/forms', { body: { title: 'x' }, origin });
        t.is(change.status, 403, `a cookie change from ${origin}`);
      }
    });

    it('a public URL that is not loopback accepts its own origin only', async (t, app) => {
      const port = new URL(app.url).port;
      const email = newEmail();
      // The account exists before the public URL moves (the app's own URL stays where the test reaches it).
      t.true([201, 202].includes((await new Browser(app).call('POST', '/auth/signup', { body: { email, password: PASSWORD } })).status));
      const before = app.formloom.config.publicUrl;
      app.formloom.config.publicUrl = 'https://forms.example.com';
      t.teardown(() => void (app.formloom.config.publicUrl = before));
      for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, 'https://localhost']) {
        const res = await new Browser(app).call('POST', '/auth/signin', { body: { email, password: PASSWORD }, origin });
        t.is(res.status, 403, origin);
        t.is(res.body.error.message, 'The Origin header must be https://forms.example.com');
      }
    });
  },
  { serial: true, sessions: { signup: 'open' }, config: CHEAP_PASSWORDS },
);
