import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, PASSWORD } from '../helpers/session-client';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { startTwoInstances } from '../helpers/two-instances';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/**
 * Two instances on one PostgreSQL database, each with its own pool and router: sessions, links and passkey
 * ceremonies live in storage, so whatever one instance starts the other finishes or ends.
 */
test('sessions, sign-out, mailed links and passkey challenges work across instances', async (t) => {
  const mails = mailbox();
  const two = await startTwoInstances({ sessions: { signup: 'open' }, mailers: [mails, mails], config: CHEAP_PASSWORDS });
  t.teardown(() => two.close());
  two.startWorkers();
  const view = (i: number) => ({ url: two.urls[0], api: (m: string, p: string, o?: object) => two.api(i, m, p, o) }) as unknown as TestApp;
  const on = (i: number, from?: Browser) => Object.assign(new Browser(view(i)), from ? { cookie: from.cookie, csrf: from.csrf } : {});

  const email = newEmail();
  const a = on(0);
  t.is((await a.call('POST', '/auth/signup', { body: { email, password: PASSWORD } })).status, 201);
  const b = on(1, a);
  t.is((await b.call('GET', '/auth/session')).status, 200, 'the other instance sees the session');
  const form = await b.call('POST', '/forms', { body: { title: 'Across' } });
  t.is(form.status, 201, 'and accepts its CSRF token');

  // Passkey: registered through instance 1, challenge begun on 0 and answered on 1.
  const device = new SoftAuthenticator(two.urls[0]);
  const reg = await a.call('POST', '/account/passkeys/options', { body: {} });
  t.is((await b.call('POST', '/account/passkeys', { body: { challenge_id: reg.body.challenge_id, response: device.register(reg.body.options) } })).status, 201);
  const begun = await on(0).call('POST', '/auth/passkeys/options', { body: {} });
  const viaKey = on(1);
  t.is((await viaKey.call('POST', '/auth/passkeys/signin', { body: { challenge_id: begun.body.challenge_id, response: device.assert(begun.body.options) } })).status, 200);

  // A link asked on 0 is used on 1.
  t.is((await on(0).call('POST', '/auth/email-link', { body: { email } })).status, 202);
  const token = await mails.linkTo(email, 'auth/link');
  const viaLink = on(1);
  t.is((await viaLink.call('POST', '/auth/email-link/verify', { body: { token } })).status, 200);

  // Signing out everywhere on 1 ends the sessions instance 0 made, at once.
  t.is((await on(1, viaLink).call('POST', '/auth/signout-all')).status, 204);
  for (const x of [a, on(0, viaKey), on(0, viaLink)]) t.is((await x.call('GET', '/auth/session')).status, 401);
});
