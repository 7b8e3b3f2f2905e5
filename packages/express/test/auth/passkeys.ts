import test from '../helpers/bounded-test';
import { forEachDb, type TestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, signUpByMail } from '../helpers/session-client';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

const mails = mailbox();

async function signedUp(app: TestApp) {
  const b = new Browser(app);
  const res = await signUpByMail(app, mails, b, { email: newEmail() });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return { b, user: res.body.user };
}

/** Registers a passkey of a new authenticator for the signed-in browser. */
async function registered(app: TestApp, b: Browser, name = 'Laptop') {
  const device = new SoftAuthenticator(app.url);
  const begun = await b.call('POST', '/account/passkeys/options', { body: {} });
  if (begun.status !== 200) throw new Error(JSON.stringify(begun.body));
  const res = await b.call('POST', '/account/passkeys', { body: { challenge_id: begun.body.challenge_id, response: device.register(begun.body.options), name } });
  return { device, res, options: begun.body.options };
}

const signInWith = async (app: TestApp, device: SoftAuthenticator, opts: { counter?: number } = {}) => {
  const b = new Browser(app);
  const begun = await b.call('POST', '/auth/passkeys/options', { body: {} });
  const res = await b.call('POST', '/auth/passkeys/signin', { body: { challenge_id: begun.body.challenge_id, response: device.assert(begun.body.options, opts) } });
  return { b, res, begun };
};

forEachDb(
  test,
  (it) => {
    it('a passkey registered after a first sign-in signs in later (ES256, attestation none)', async (t, app) => {
      const { b, user } = await signedUp(app);
      const { device, res, options } = await registered(app, b);
      t.is(options.rp.id, '127.0.0.1');
      t.is(options.attestation, 'none');
      t.is(res.status, 201, JSON.stringify(res.body));
      t.like(res.body, { name: 'Laptop', last_used_at: null });
      t.deepEqual((await b.call('GET', '/account/passkeys')).body.passkeys.map((p: { id: string }) => p.id), [res.body.id]);

      const first = await signInWith(app, device);
      t.is(first.res.status, 200, JSON.stringify(first.res.body));
      t.is(first.res.body.user.id, user.id);
      t.is((await first.b.call('GET', '/auth/session')).status, 200);
      t.truthy((await b.call('GET', '/account/passkeys')).body.passkeys[0].last_used_at);
      t.is((await signInWith(app, device)).res.status, 200, 'again, with a grown counter');
    });

    it('refused: a replayed challenge, a counter that did not grow, an unknown or removed passkey, a tampered signature', async (t, app) => {
      const { b } = await signedUp(app);
      const { device, res } = await registered(app, b);
      const ok = await signInWith(app, device);
      t.is(ok.res.status, 200);
      // The same challenge again (another instance would refuse it too: it is used in storage).
      const replay = await new Browser(app).call('POST', '/auth/passkeys/signin', { body: { challenge_id: ok.begun.body.challenge_id, response: device.assert(ok.begun.body.options) } });
      t.like(replay.body.error, { code: 'UNAUTHORIZED', reason: 'invalid_credentials' });
      t.is((await signInWith(app, device, { counter: 1 })).res.status, 401, 'a cloned authenticator (counter went back)');
      const stranger = await signInWith(app, new SoftAuthenticator(app.url));
      t.is(stranger.res.status, 401, 'a passkey this instance does not know');
      const begun = await new Browser(app).call('POST', '/auth/passkeys/options', { body: {} });
      const answer = device.assert(begun.body.options);
      answer.response.signature = Buffer.from('not a signature').toString('base64url');
      t.is((await new Browser(app).call('POST', '/auth/passkeys/signin', { body: { challenge_id: begun.body.challenge_id, response: answer } })).status, 401);
      // An authenticator answering for another site (origin) is refused at registration.
      const begunReg = await b.call('POST', '/account/passkeys/options', { body: {} });
      const phishing = new SoftAuthenticator('https://evil.example');
      const bad = await b.call('POST', '/account/passkeys', { body: { challenge_id: begunReg.body.challenge_id, response: phishing.register(begunReg.body.options) } });
      t.is(bad.status, 400);
      t.is((await b.call('DELETE', `/account/passkeys/${res.body.id}`)).status, 204);
      t.is((await signInWith(app, device)).res.status, 401, 'removed');
      t.is((await b.call('DELETE', `/account/passkeys/${res.body.id}`)).status, 404);
    });

    it("registration needs the session; another user's challenge is refused", async (t, app) => {
      const a = await signedUp(app);
      const other = await signedUp(app);
      const key = await app.formloom.accounts.createKey(a.user.id);
      t.is((await app.api('POST', '/account/passkeys/options', { key: key.api_key, body: {} })).status, 401);
      const begun = await a.b.call('POST', '/account/passkeys/options', { body: {} });
      const device = new SoftAuthenticator(app.url);
      const stolen = await other.b.call('POST', '/account/passkeys', { body: { challenge_id: begun.body.challenge_id, response: device.register(begun.body.options) } });
      t.is(stolen.status, 400);
      t.deepEqual((await other.b.call('GET', '/account/passkeys')).body.passkeys, []);
    });
  },
  { sessions: { signup: 'open' }, mailer: mails, rateLimits: { failedAuth: { limit: 10_000 } }, config: CHEAP_PASSWORDS },
);
