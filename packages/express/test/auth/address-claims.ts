import test from '../helpers/bounded-test';
import type { SignupMode } from '@formloom/core';
import { createDataSource } from '@formloom/storage-typeorm';
import { postgresTestUrl } from '@formloom/storage-typeorm/testing';
import { DB_KINDS, startTestApp, type DbKind, type TestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, PASSWORD, signUpByMail, until } from '../helpers/session-client';
import { SoftAuthenticator } from '../helpers/soft-authenticator';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/*
 * Who may hold an address (issue 34, items 1, 3, 4, 29, 30, 32; docs/security.md "An address claimed before
 * its owner"): nothing set before the first proof of a mailbox survives it, a sign-in ends the session it
 * replaces, and the sign-up and link requests answer alike, and first, for every address.
 */

const mails = mailbox();

async function instance(t: { teardown(fn: () => Promise<void>): void }, kind: DbKind, mode: SignupMode) {
  const app = await startTestApp(kind, { sessions: { signup: mode }, mailer: mails, rateLimits: { failedAuth: { limit: 10_000 } }, config: CHEAP_PASSWORDS });
  t.teardown(() => app.close());
  app.formloom.worker.start(); // its mails wake it as they are queued: no fast poll
  return app;
}

const signIn = (app: TestApp, email: string, password = PASSWORD) => new Browser(app).call('POST', '/auth/signin', { body: { email, password } });

/** Registers a passkey of a new authenticator for the signed-in browser. */
async function passkey(app: TestApp, b: Browser) {
  const device = new SoftAuthenticator(app.url);
  const begun = await b.call('POST', '/account/passkeys/options', { body: {} });
  const res = await b.call('POST', '/account/passkeys', { body: { challenge_id: begun.body.challenge_id, response: device.register(begun.body.options), name: 'Theirs' } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return device;
}

async function passkeySignIn(app: TestApp, device: SoftAuthenticator) {
  const b = new Browser(app);
  const begun = await b.call('POST', '/auth/passkeys/options', { body: {} });
  return b.call('POST', '/auth/passkeys/signin', { body: { challenge_id: begun.body.challenge_id, response: device.assert(begun.body.options) } });
}

/**
 * The claimant holds `email` with a password, a passkey, an API key and a session; then the owner of the
 * mailbox signs in with a mailed link. Everything the claimant set is gone.
 */
async function ownerProvesTheMailbox(t: import('ava').ExecutionContext, app: TestApp, claimant: Browser, email: string) {
  const device = await passkey(app, claimant);
  const key = (await claimant.call('POST', '/account/api-keys', { body: { name: 'mine', scope: 'forms' } })).body.api_key;
  t.is((await app.api('GET', '/forms', { key })).status, 200, 'before the proof, the key works');
  t.is((await signIn(app, email)).status, 200, 'and so does the password');

  t.is((await new Browser(app).call('POST', '/auth/email-link', { body: { email } })).status, 202);
  const owner = new Browser(app);
  const signedIn = await owner.call('POST', '/auth/email-link/verify', { body: { token: await mails.linkTo(email, 'auth/link') } });
  t.is(signedIn.status, 200);
  t.true(signedIn.body.user.email_verified);

  t.is((await claimant.call('GET', '/auth/session')).status, 401, "the claimant's session ended");
  t.is((await signIn(app, email)).status, 401, "the claimant's password no longer signs in");
  t.is((await passkeySignIn(app, device)).status, 401, "the claimant's passkey no longer signs in");
  t.deepEqual((await owner.call('GET', '/account/passkeys')).body.passkeys, []);
  t.is((await app.api('GET', '/forms', { key })).status, 401, "the claimant's API key is revoked");
  t.is((await owner.call('GET', '/auth/session')).status, 200, "the owner's session works");
  // A later proof changes nothing: what the owner sets now stays.
  t.is((await owner.call('POST', '/auth/email-link/verify', { body: { token: 'y'.repeat(43) } })).status, 400);
}

for (const kind of DB_KINDS) {
  test(`[${kind}] open: a sign-up holds nothing for an address; the mailed link asks for the password chosen`, async (t) => {
    const app = await instance(t, kind, 'open');
    t.is((await signUpByMail(app, mails, new Browser(app), { email: newEmail('first') })).status, 201);
    const victim = newEmail('victim');
    const attacker = new Browser(app);
    const claim = await attacker.call('POST', '/auth/signup', { body: { email: victim, password: 'the attacker chose this' } });
    t.deepEqual([claim.status, claim.body], [202, { sent: true }]);
    t.is(claim.headers.get('set-cookie'), null, 'no session');
    t.is((await signIn(app, victim, 'the attacker chose this')).status, 401, 'no password held');
    const token = await mails.linkTo(victim, 'auth/finish');
    // The mailbox's owner follows the link someone else asked for: nothing is made without that password.
    const owner = new Browser(app);
    const refused = await owner.call('POST', '/auth/signup/finish', { body: { token, password: 'whatever I type' } });
    t.is(refused.status, 401);
    t.like(refused.body.error, { reason: 'invalid_credentials' });
    t.is((await app.raw(`SELECT id FROM users WHERE email = '${victim}'`)).length, 0);
    // The owner signs up themselves; the attacker's link stays useless to the attacker (it went to the owner).
    const mine = await signUpByMail(app, mails, owner, { email: victim, password: 'the owner chose this' });
    t.is(mine.status, 201);
    t.is((await signIn(app, victim, 'the attacker chose this')).status, 401);
    t.is((await signIn(app, victim, 'the owner chose this')).status, 200);
  });

  test(`[${kind}] open: an address held before its owner proved it (the first account) loses sessions, password, passkeys and keys at the proof`, async (t) => {
    const app = await instance(t, kind, 'open');
    const victim = newEmail('victim');
    const claimant = new Browser(app);
    t.is((await claimant.call('POST', '/auth/signup', { body: { email: victim, password: PASSWORD } })).status, 201);
    await ownerProvesTheMailbox(t, app, claimant, victim);
  });

  test(`[${kind}] invite: the invitation's address claimed with its token (known to the inviter) loses everything at the owner's proof`, async (t) => {
    const app = await instance(t, kind, 'invite');
    const admin = new Browser(app);
    t.is((await admin.call('POST', '/auth/signup', { body: { email: newEmail('admin'), password: PASSWORD } })).status, 201);
    const team = await admin.call('POST', '/teams', { body: { name: 'Crew' } });
    const victim = newEmail('invitee');
    const inv = (await admin.call('POST', `/teams/${team.body.id}/invitations`, { body: { email: victim, role: 'editor' } })).body;
    t.is((await new Browser(app).call('POST', '/auth/signup', { body: { email: victim, password: PASSWORD } })).status, 403, 'not without the token');
    const claimant = new Browser(app);
    t.is((await claimant.call('POST', '/auth/signup', { body: { email: victim, password: PASSWORD, invitation_token: inv.token } })).status, 201);
    await ownerProvesTheMailbox(t, app, claimant, victim);
  });

  test(`[${kind}] a verification link followed by another browser ends what was set before; by the account's own session it keeps it`, async (t) => {
    const app = await instance(t, kind, 'invite');
    const first = new Browser(app);
    const email = newEmail('admin');
    t.is((await first.call('POST', '/auth/signup', { body: { email, password: PASSWORD } })).status, 201);
    const token = await mails.linkTo(email, 'auth/verify');
    t.is((await new Browser(app).call('POST', '/auth/verify-email', { body: { token } })).status, 200);
    t.is((await first.call('GET', '/auth/session')).status, 401);
    t.is((await signIn(app, email)).status, 401, 'the password set before the proof is gone: sign in by link or reset');
  });

  test(`[${kind}] a sign-in that presents a session cookie ends that session`, async (t) => {
    const app = await instance(t, kind, 'open');
    const b = new Browser(app);
    const email = newEmail();
    t.is((await signUpByMail(app, mails, b, { email })).status, 201);
    const firstCookie = b.cookie!;
    t.is((await b.call('POST', '/auth/signin', { body: { email, password: PASSWORD } })).status, 200);
    t.not(b.cookie, firstCookie);
    const old = Object.assign(new Browser(app), { cookie: firstCookie });
    t.is((await old.call('GET', '/auth/session')).status, 401, 'the first session token is dead');
    t.is((await b.call('GET', '/auth/session')).status, 200);
    // The same by a mailed link: the session it replaces ends too.
    const second = b.cookie!;
    await b.call('POST', '/auth/email-link', { body: { email } });
    t.is((await b.call('POST', '/auth/email-link/verify', { body: { token: await mails.linkTo(email, 'auth/link') } })).status, 200);
    t.is((await Object.assign(new Browser(app), { cookie: second }).call('GET', '/auth/session')).status, 401);
    // A failed sign-in ends nothing.
    const third = b.cookie!;
    t.is((await b.call('POST', '/auth/signin', { body: { email, password: 'not the password' } })).status, 401);
    t.is((await Object.assign(new Browser(app), { cookie: third }).call('GET', '/auth/session')).status, 200);
  });

  test(`[${kind}] open: sign-up answers alike for known and unknown addresses and mails the owner of a known one`, async (t) => {
    const app = await instance(t, kind, 'open');
    const known = newEmail('known');
    t.is((await signUpByMail(app, mails, new Browser(app), { email: known })).status, 201);
    const unknown = newEmail('unknown');
    const answers = [];
    for (const email of [known, unknown]) answers.push(await new Browser(app).call('POST', '/auth/signup', { body: { email, password: 'some long password' } }));
    t.deepEqual(
      answers.map((a) => [a.status, a.text, a.headers.get('set-cookie'), a.headers.get('content-type')]),
      Array(2).fill([202, '{"sent":true}', null, 'application/json; charset=utf-8']),
    );
    await until(() => mails.messages.some((m) => m.to === known && /Someone tried/.test(m.subject)));
    const notice = mails.messages.find((m) => m.to === known && /Someone tried/.test(m.subject))!;
    t.regex(notice.text, new RegExp(`${app.url}/signin`));
    t.regex(notice.text, new RegExp(`${app.url}/forgot`));
    t.notRegex(notice.text, /#token=/, 'the notice carries no link that makes or opens anything');
    await mails.linkTo(unknown, 'auth/finish');
  });

  test(`[${kind}] sign-up refuses the addresses every other email field refuses`, async (t) => {
    const app = await instance(t, kind, 'open');
    for (const email of ['x@bad-.example.com', `${'a'.repeat(65)}@example.com`, `x@${'b'.repeat(64)}.example.com`, '0@com']) {
      const res = await new Browser(app).call('POST', '/auth/signup', { body: { email, password: PASSWORD } });
      t.is(res.status, 400, email);
      t.is(res.body.error.field, 'email', email);
    }
    const doc = (await app.api('GET', '/openapi.json')).body;
    const schema = doc.paths['/auth/signup'].post.requestBody.content['application/json'].schema;
    const props = schema.properties ?? doc.components.schemas[schema.$ref.split('/').pop()].properties;
    t.is(props.email.format, 'email');
  });

  test(`[${kind}] passkey options take a JSON object or nothing; an array or a scalar is 400`, async (t) => {
    const app = await instance(t, kind, 'open');
    const b = new Browser(app);
    t.is((await signUpByMail(app, mails, b, { email: newEmail() })).status, 201);
    for (const body of ['[null,null]', '[]', '"x"', '3', 'null']) {
      const res = await new Browser(app).call('POST', '/auth/passkeys/options', { body, headers: { 'content-type': 'application/json' } });
      t.is(res.status, 400, body);
      t.is(res.body.error.code, 'BAD_REQUEST', body);
      t.is((await b.call('POST', '/account/passkeys/options', { body, headers: { 'content-type': 'application/json' } })).status, 400, `account: ${body}`);
    }
    t.is((await new Browser(app).call('POST', '/auth/passkeys/options', { body: {} })).status, 200);
    t.is((await new Browser(app).call('POST', '/auth/passkeys/options')).status, 200, 'no body');
  });

  test(`[${kind}] link, reset and sign-up requests answer before their mail work, for known and unknown addresses`, async (t) => {
    // Without limits: their counters are written before any answer, the same for every address.
    const own = mailbox();
    const app = await startTestApp(kind, { sessions: { signup: 'open' }, mailer: own, rateLimits: false, config: CHEAP_PASSWORDS });
    t.teardown(() => app.close());
    app.formloom.worker.start(); // its mails wake it as they are queued: no fast poll
    const known = newEmail('known');
    t.is((await signUpByMail(app, own, new Browser(app), { email: known })).status, 201);
    const before = own.messages.length;
    const lock = await holdWrites(app);
    let answers;
    try {
      const asks = [
        ['/auth/email-link', { email: known }],
        ['/auth/password-reset', { email: known }],
        ['/auth/email-link', { email: newEmail('nobody') }],
        ['/auth/password-reset', { email: newEmail('nobody') }],
        ['/auth/signup', { email: known, password: PASSWORD }],
        ['/auth/signup', { email: newEmail('new'), password: PASSWORD }],
      ] as const;
      // Answered while the database refuses the links' and mails' writes.
      answers = await lock.whileHeld(Promise.all(asks.map(([path, body]) => new Browser(app).call('POST', path, { body }))));
    } finally {
      await lock.release();
    }
    t.deepEqual(answers.map((a) => [a.status, a.text]), Array(6).fill([202, '{"sent":true}']));
    // Then the work is done: the known address gets its link, its reset and its notice.
    // (The first account's own verification mail may arrive in between.)
    const toKnown = () => own.messages.slice(before).filter((m) => m.to === known && !/^Confirm/.test(m.subject)).map((m) => m.subject);
    await until(() => toKnown().length >= 3);
    t.deepEqual(toKnown().sort(), ['Reset your Formloom password', 'Someone tried to make a Formloom account with your address', 'Your sign-in link for Formloom']);
  });
}

/**
 * Holds the database from another connection: on PostgreSQL an exclusive lock on the tables of links and
 * mails (no read or write of them passes), on SQLite the write lock. `whileHeld(p)` resolves with `p` if it settles while the
 * lock is still held, and fails after a generous deadline otherwise.
 */
async function holdWrites(app: TestApp) {
  // On PostgreSQL a test database may be a database of its own (a template's copy): the app's, named by the server.
  const where = app.kind === 'postgres' ? (await app.raw('SELECT current_schema() AS s, current_database() AS d'))[0] : undefined;
  const pgUrl = async () => Object.assign(new URL(await postgresTestUrl()), { pathname: `/${where.d}` }).toString();
  const url =
    app.kind === 'postgres'
      ? await pgUrl()
      : `sqlite:${(await app.raw('PRAGMA database_list')).find((r: { name: string }) => r.name === 'main').file}`;
  const schema: string | undefined = where?.s;
  const ds = createDataSource(url, { ...(schema ? { schema, poolSize: 1 } : {}), busyTimeoutMs: 60_000 });
  await ds.initialize();
  const runner = ds.createQueryRunner();
  await runner.connect();
  if (app.kind === 'postgres') {
    await runner.startTransaction();
    await runner.query(`LOCK TABLE ${schema}.one_time_tokens, ${schema}.outbox IN ACCESS EXCLUSIVE MODE`);
  } else {
    await runner.query('BEGIN IMMEDIATE');
  }
  let released = false;
  return {
    async whileHeld<T>(p: Promise<T>): Promise<T> {
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer while the database was held')), 30_000);
      });
      try {
        return await Promise.race([p, deadline]);
      } finally {
        clearTimeout(timer);
      }
    },
    async release() {
      if (released) return;
      released = true;
      await runner.query('COMMIT');
      await runner.release();
      await ds.destroy();
    },
  };
}
