import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createFormloom } from '@formloom/core';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { Browser, mailbox, newEmail, PASSWORD } from '../helpers/session-client';
import { createFormloomRouter } from '../../src';

/*
 * Password hashes (docs/security.md): scrypt at N = 16,384 unless the instance's `passwordHashCost` says
 * otherwise. The other auth parts make their apps at the least cost (helpers/password-cost.ts); this one keeps
 * the default, and checks that a hash at another cost names it, so instances sharing a database check each
 * other's hashes whatever their own setting.
 */

const DEFAULT_FORM = /^scrypt\$[0-9a-f]{32}\$[0-9a-f]{64}$/;
const storedHash = async (app: TestApp, userId: string) =>
  (await app.raw(`SELECT password_hash FROM user_passwords WHERE user_id = '${userId}'`))[0].password_hash as string;

/** A second instance on `app`'s database at `passwordHashCost` 1, mounted on a port of its own: its Browser view. */
async function cheapInstanceOn(t: { teardown(fn: () => Promise<void>): void }, app: TestApp) {
  const formloom = createFormloom({ storage: app.formloom.storage, config: { secretKey: 'test-secret-key', passwordHashCost: 1 } });
  const host = express();
  host.use('/api/v1', createFormloomRouter({ formloom, sessions: { signup: 'open' }, rateLimits: false }));
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = host.listen(0, '127.0.0.1', () => resolve(s));
  });
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  formloom.config.publicUrl = url;
  const view = { ...app, url, api: async (method: string, path: string, opts: { body?: unknown; headers?: Record<string, string> } = {}) => {
    const res = await fetch(`${url}/api/v1${path}`, {
      method,
      headers: { ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }), ...opts.headers },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  } } as TestApp;
  return view;
}

for (const kind of DB_KINDS) {
  test(`[${kind}] passwords are stored as scrypt at N = 16,384 by default; a hash at another cost names it and every instance checks both`, async (t) => {
    const app = await startTestApp(kind, { sessions: { signup: 'open' }, mailer: mailbox(), rateLimits: false });
    t.teardown(() => app.close());
    t.is(app.formloom.config.passwordHashCost, undefined, 'the default instance');
    const email = newEmail();
    const first = await new Browser(app).call('POST', '/auth/signup', { body: { email, password: PASSWORD } });
    t.is(first.status, 201, 'the first account signs up at once');
    const userId = first.body.user.id as string;
    t.regex(await storedHash(app, userId), DEFAULT_FORM, 'the form stored hashes have always had: N = 2^14');
    t.is((await new Browser(app).call('POST', '/auth/signin', { body: { email, password: 'not the password' } })).status, 401);
    t.is((await new Browser(app).call('POST', '/auth/signin', { body: { email, password: PASSWORD } })).status, 200);

    // An instance at cost 1 on the same database checks the default hash, and its own names its cost.
    const cheap = await cheapInstanceOn(t, app);
    const b = new Browser(cheap);
    t.is((await b.call('POST', '/auth/signin', { body: { email, password: PASSWORD } })).status, 200);
    t.is((await b.call('POST', '/account/password', { body: { current_password: PASSWORD, new_password: 'a cheaper new secret' } })).status, 200);
    t.regex(await storedHash(app, userId), /^scrypt\$ln=1\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
    for (const at of [app, cheap]) {
      t.is((await new Browser(at).call('POST', '/auth/signin', { body: { email, password: PASSWORD } })).status, 401, `${at.url}: the old password`);
      t.is((await new Browser(at).call('POST', '/auth/signin', { body: { email, password: 'a cheaper new secret' } })).status, 200, `${at.url}: the new one`);
    }
    // Unknown accounts are checked against a decoy of the instance's own cost, and refused alike.
    t.is((await new Browser(cheap).call('POST', '/auth/signin', { body: { email: newEmail('nobody'), password: PASSWORD } })).status, 401);
  });
}

test('an instance refuses a password hash cost no hash can be made at', (t) => {
  for (const passwordHashCost of [0, 15, 2.5]) {
    t.throws(() => createFormloom({ storage: {} as never, config: { passwordHashCost } }), { message: /passwordHashCost must be an integer from 1 to 14/ }, String(passwordHashCost));
  }
});
