import test from '../helpers/bounded-test';
import { DB_KINDS, startTestApp, type DbKind, type TestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, PASSWORD } from '../helpers/session-client';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/*
 * The first proof of an address revokes the API keys its claimant made, not the operator's (docs/security.md
 * "An address claimed before its owner"): the README's first steps make an account and a key with the CLI
 * (`formloom user create`, `formloom key create`: AccountService, `made_by: 'operator'`); the owner's first
 * sign-in by a mailed link must leave that key working.
 */

const mails = mailbox();

async function instance(t: { teardown(fn: () => Promise<void>): void }, kind: DbKind) {
  const app = await startTestApp(kind, { sessions: { signup: 'open' }, mailer: mails, rateLimits: { failedAuth: { limit: 10_000 } }, config: CHEAP_PASSWORDS });
  t.teardown(() => app.close());
  app.formloom.worker.start(); // its mails wake it as they are queued: no fast poll
  return app;
}

/** The owner of `email` signs in with a mailed link: the address's first proof. */
async function signInByLink(app: TestApp, email: string) {
  const owner = new Browser(app);
  if ((await owner.call('POST', '/auth/email-link', { body: { email } })).status !== 202) throw new Error('link not requested');
  const res = await owner.call('POST', '/auth/email-link/verify', { body: { token: await mails.linkTo(email, 'auth/link') } });
  if (res.status !== 200 || !res.body.user.email_verified) throw new Error(JSON.stringify(res.body));
  return owner;
}

const works = async (app: TestApp, key: string) => (await app.api('GET', '/forms', { key })).status;

for (const kind of DB_KINDS) {
  test(`[${kind}] the README's first steps: a key made by the operator for an unverified account survives the owner's first sign-in by link`, async (t) => {
    const app = await instance(t, kind);
    const ada = newEmail('ada');
    await app.formloom.accounts.createUser({ email: ada });
    const { api_key, key_id } = await app.formloom.accounts.createKey(ada);
    t.is(await works(app, api_key), 200);

    const owner = await signInByLink(app, ada);
    t.is(await works(app, api_key), 200, "the operator's key still works");
    const listed = (await owner.call('GET', '/account/api-keys')).body.api_keys;
    t.deepEqual(listed.map((k: { key_id: string; revoked_at: string | null }) => [k.key_id, k.revoked_at]), [[key_id, null]]);
    t.like((await app.formloom.accounts.listKeys(ada)).keys[0], { key_id, made_by: 'operator', revoked_at: null });
  });

  test(`[${kind}] at the first proof the claimant's own keys are revoked and the operator's stay, in one account`, async (t) => {
    const app = await instance(t, kind);
    const victim = newEmail('victim');
    // The first account signs up at once, unproven: the claimant holds it with a password and a session.
    const claimant = new Browser(app);
    t.is((await claimant.call('POST', '/auth/signup', { body: { email: victim, password: PASSWORD } })).status, 201);
    const theirs = (await claimant.call('POST', '/account/api-keys', { body: { name: 'theirs', scope: 'forms' } })).body;
    const operators = await app.formloom.accounts.createKey(victim, { scope: 'forms' });
    t.is(await works(app, theirs.api_key), 200);

    await signInByLink(app, victim);
    t.is(await works(app, theirs.api_key), 401, "the key made from the claimant's session is revoked");
    t.is(await works(app, operators.api_key), 200, "the operator's key stays");
    t.is((await claimant.call('GET', '/auth/session')).status, 401, "the claimant's session ended all the same");
    const makers = Object.fromEntries((await app.formloom.accounts.listKeys(victim)).keys.map((k) => [k.key_id, [k.made_by, k.revoked_at === null]]));
    t.deepEqual(makers, { [theirs.key_id]: ['owner', false], [operators.key_id]: ['operator', true] });
  });
}
