import test from '../helpers/bounded-test';
import type { ExecutionContext } from 'ava';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { FormloomError } from '@formloom/core';
import { DB_KINDS, startTestApp, type ApiResponse, type TestApp, type TestAppOptions } from '../helpers/app';
import { Browser, newEmail, PASSWORD } from '../helpers/session-client';
import { createFormloomRouter, hostUserAuthenticator, type AuthenticateHook } from '../../src';
import { CHEAP_PASSWORDS } from '../helpers/password-cost';

/*
 * What counts as a failed authentication (docs/security.md, "Rate limits"): wrong credentials, never their
 * absence; and what a 429 of that limit says in its X-RateLimit-* headers. Each test has its own app: all
 * requests come from 127.0.0.1 and the limits count per address.
 */

/** A clock that moves a millisecond per real second: no window ends during a test, however busy the machine. */
function slowClock() {
  const started = Date.now();
  return { now: () => new Date(started + Math.floor((Date.now() - started) / 1000)) };
}

async function withApp(kind: (typeof DB_KINDS)[number], opts: TestAppOptions, fn: (app: TestApp) => Promise<void>) {
  const app = await startTestApp(kind, { clock: slowClock(), config: CHEAP_PASSWORDS, ...opts });
  try {
    await fn(app);
  } finally {
    await app.close();
  }
}

/** Two clients behind the host's proxy (`trustProxy: 'loopback'`): the account's maker and the one who guesses. */
const OTHER_ADDRESS = { 'x-forwarded-for': '203.0.113.10' };
const GUESSER = { 'x-forwarded-for': '203.0.113.66' };

const badKey = (i: number) => `Bearer fl_${'a'.repeat(24)}_${i.toString(16).padStart(64, '0')}`;

/** 429 with Retry-After, and the X-RateLimit-* headers of the failed-authentication limit (`limit`), not another's. */
function assertFailedAuthLimited(t: ExecutionContext, res: { status: number; headers: Headers }, limit: number, label: string) {
  t.is(res.status, 429, label);
  t.regex(res.headers.get('retry-after') ?? '', /^\d+$/, `${label}: Retry-After`);
  t.is(res.headers.get('x-ratelimit-limit'), String(limit), `${label}: the limit that refused`);
  t.is(res.headers.get('x-ratelimit-remaining'), '0', label);
  t.regex(res.headers.get('x-ratelimit-reset') ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/, label);
}

/** A host in front of the test app's instance, with its own hook and `apiKeys`; plain fetch calls to it. */
async function hostWith(t: ExecutionContext, app: TestApp, authenticate: AuthenticateHook, limit: number) {
  const h = express().use('/api/v1', createFormloomRouter({ formloom: app.formloom, authenticate, apiKeys: true, rateLimits: { failedAuth: { limit } } }));
  const server = h.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(() => void server.close());
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  return (path: string, headers: Record<string, string> = {}) => fetch(`${url}${path}`, { headers }).then(async (r) => (await r.arrayBuffer(), r));
}

for (const kind of DB_KINDS) {
  test(`[${kind}] wrong current passwords count as failed sign-ins: 429 with Retry-After and that limit's headers`, async (t) => {
    await withApp(kind, { sessions: { signup: 'open' }, trustProxy: 'loopback', rateLimits: { failedAuth: { limit: 5 } } }, async (app) => {
      // The first account of the empty instance, signed in at once; made from another address, so that whatever
      // sign-up counts against its own address leaves the guessing address's budget whole.
      const b = new Browser(app);
      t.is((await b.call('POST', '/auth/signup', { body: { email: newEmail(), password: PASSWORD }, headers: OTHER_ADDRESS })).status, 201);
      const change = (current: string) =>
        b.call('POST', '/account/password', { body: { current_password: current, new_password: 'a new long password' }, headers: GUESSER });
      for (let i = 0; i < 5; i++) {
        const res = await change(`wrong guess ${i}`);
        t.is(res.status, 403);
        t.is(res.body.error.reason, 'invalid_credentials');
        t.is(res.headers.get('x-ratelimit-limit'), '600', "an answer let in shows the session's per-user budget");
      }
      const limited: ApiResponse = await change('wrong guess 5');
      assertFailedAuthLimited(t, limited, 5, 'sixth guess');
      t.is(limited.body.error.code, 'RATE_LIMITED');
      t.is(limited.body.error.retry_after, Number(limited.headers.get('retry-after')));
      assertFailedAuthLimited(t, await change(PASSWORD), 5, 'even the right password, until the window ends');
    });
  });

  test(`[${kind}] a failed sign-in's 429 carries the failed-authentication limit's headers, not the public reads'`, async (t) => {
    await withApp(kind, { sessions: { signup: 'open' }, trustProxy: 'loopback', rateLimits: { failedAuth: { limit: 3 } } }, async (app) => {
      const email = newEmail();
      t.is((await new Browser(app).call('POST', '/auth/signup', { body: { email, password: PASSWORD }, headers: OTHER_ADDRESS })).status, 201);
      const b = new Browser(app);
      for (let i = 0; i < 3; i++) {
        const res = await b.call('POST', '/auth/signin', { body: { email, password: `not it ${i}` }, headers: GUESSER });
        t.is(res.status, 401);
        t.is(res.headers.get('x-ratelimit-limit'), '600', 'a wrong password let in shows the public reads budget');
      }
      assertFailedAuthLimited(t, await b.call('POST', '/auth/signin', { body: { email, password: 'not it 3' }, headers: GUESSER }), 3, 'fourth sign-in');
    });
  });

  test(`[${kind}] requests without credentials count nothing, also with a host's hook; wrong keys still do`, async (t) => {
    await withApp(kind, {}, async (app) => {
      const u = await app.user();
      const call = await hostWith(
        t,
        app,
        hostUserAuthenticator(app.formloom, (req) => (req.get('x-host-user') ? { email: req.get('x-host-user')! } : null)),
        5,
      );
      const anonymous = await Promise.all(Array.from({ length: 30 }, () => call('/forms')));
      t.deepEqual([...new Set(anonymous.map((r) => r.status))], [401], 'a visitor who is not signed in guesses nothing');
      t.is((await call('/forms', { 'x-host-user': newEmail('host') })).status, 200, "the host's signed-in users go on");
      t.is((await call('/forms', { authorization: `Bearer ${u.key}` })).status, 200, 'a valid key goes on');
      for (let i = 0; i < 5; i++) t.is((await call('/forms', { authorization: badKey(i) })).status, 401);
      assertFailedAuthLimited(t, await call('/forms', { authorization: badKey(5) }), 5, 'a sixth wrong key');
      t.is((await call('/forms', { authorization: `Bearer ${u.key}` })).status, 429, 'then the address is blocked for keys');
    });
  });

  test(`[${kind}] the default authentication: many anonymous requests, then a valid key still works`, async (t) => {
    await withApp(kind, { sessions: { signup: 'open' }, rateLimits: { failedAuth: { limit: 5 } } }, async (app) => {
      // The first account of the empty instance: signed in at once whatever the sign-up mode does for later ones.
      const b = new Browser(app);
      t.is((await b.call('POST', '/auth/signup', { body: { email: newEmail(), password: PASSWORD } })).status, 201);
      const u = await app.user();
      const anonymous = await Promise.all(Array.from({ length: 30 }, () => app.api('GET', '/forms')));
      t.deepEqual([...new Set(anonymous.map((r) => r.status))], [401]);
      t.is((await app.api('GET', '/forms', { key: u.key })).status, 200);
      t.is((await b.call('GET', '/forms')).status, 200, 'a valid session cookie works');
    });
  });

  test(`[${kind}] a host's hook reports wrong credentials of its own by throwing a 401, and those count`, async (t) => {
    await withApp(kind, {}, async (app) => {
      const u = await app.user();
      const hook: AuthenticateHook = (req) => {
        const session = req.get('x-host-session');
        if (!session) return null;
        if (session !== 'good') throw new FormloomError('UNAUTHORIZED', 'Unknown host session');
        return { user_id: u.id, key_id: null, scope: 'forms' };
      };
      const call = await hostWith(t, app, hook, 3);
      for (let i = 0; i < 10; i++) t.is((await call('/forms')).status, 401);
      t.is((await call('/forms', { 'x-host-session': 'good' })).status, 200);
      for (let i = 0; i < 3; i++) t.is((await call('/forms', { 'x-host-session': `stolen-${i}` })).status, 401);
      assertFailedAuthLimited(t, await call('/forms', { 'x-host-session': 'stolen-3' }), 3, 'a fourth wrong session');
    });
  });
}
