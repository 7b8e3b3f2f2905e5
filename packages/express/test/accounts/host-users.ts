import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createFormloomRouter, hostUserAuthenticator } from '../../src';
import { DB_KINDS, startTestApp } from '../helpers/app';

/** A host whose "session" is the `x-host-user` header (standing in for a cookie session), with Formloom beside it. */
async function host(app: Awaited<ReturnType<typeof startTestApp>>, apiKeys: boolean) {
  const h = express();
  const authenticate = hostUserAuthenticator(app.formloom, (req) => {
    const email = req.get('x-host-user');
    return email ? { email, first_name: 'Host' } : null;
  });
  h.use('/api/v1', createFormloomRouter({ formloom: app.formloom, rateLimits: false, authenticate, apiKeys }));
  const server = h.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, close: () => server.close() };
}

for (const kind of DB_KINDS) {
  test(`[${kind}] a new host user's first eight parallel requests make one Formloom user and all succeed`, async (t) => {
    const app = await startTestApp(kind);
    t.teardown(() => app.close());
    const server = await host(app, false);
    t.teardown(server.close);
    const email = `first-${Date.now()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(`${server.url}/forms`, { method: 'POST', headers: { 'x-host-user': email, 'content-type': 'application/json' }, body: JSON.stringify({ title: `Form ${i}` }) }),
      ),
    );
    t.deepEqual(answers.map((r) => r.status), Array(8).fill(201));
    const users = await app.raw(`SELECT id FROM users WHERE email = '${email}'`);
    t.is(users.length, 1);
    const list = await (await fetch(`${server.url}/forms?per_page=100`, { headers: { 'x-host-user': email } })).json();
    t.is((list as any).total, 8, 'every form belongs to the one user');
    t.is((await fetch(`${server.url}/forms`)).status, 401);
  });
}

test('with apiKeys, people come through the host and scripts with API keys; a bad key never falls through', async (t) => {
  const app = await startTestApp('sqlite');
  t.teardown(() => app.close());
  const withKeys = await host(app, true);
  const hostOnly = await host(app, false);
  t.teardown(() => (withKeys.close(), hostOnly.close()));
  const script = await app.user();
  const bearer = { authorization: `Bearer ${script.key}` };
  t.is((await fetch(`${withKeys.url}/forms`, { headers: { 'x-host-user': 'person@example.com' } })).status, 200);
  t.is((await fetch(`${withKeys.url}/forms`, { headers: bearer })).status, 200);
  // A wrong key is refused even when a session is there too: the key decides.
  const wrong = await fetch(`${withKeys.url}/forms`, { headers: { authorization: `Bearer ${script.key}x`, 'x-host-user': 'person@example.com' } });
  t.is(wrong.status, 401);
  // Without the option the host alone decides, and keys mean nothing.
  t.is((await fetch(`${hostOnly.url}/forms`, { headers: bearer })).status, 401);
  // The document names both schemes, either one sufficing.
  const doc = (await (await fetch(`${withKeys.url}/openapi.json`)).json()) as any;
  t.deepEqual(Object.keys(doc.components.securitySchemes).sort(), ['apiKey', 'hostAuth']);
  t.deepEqual(doc.paths['/forms'].get.security, [{ hostAuth: [] }, { apiKey: [] }]);
});

for (const kind of DB_KINDS) {
  test(`[${kind}] a host user is taken as the host names them: ops@intranet works; an unusable identity is a logged 400`, async (t) => {
    const warnings: Array<{ message: string; details?: Record<string, unknown> }> = [];
    const app = await startTestApp(kind, {
      logger: { info: () => undefined, warn: (message, details) => void warnings.push({ message, details }), error: (m, d) => console.error(m, d) },
    });
    t.teardown(() => app.close());
    const server = await host(app, false);
    t.teardown(server.close);
    const as = (who: string, init: RequestInit = {}) => fetch(`${server.url}/forms`, { ...init, headers: { 'x-host-user': who, 'content-type': 'application/json' } });
    // An intranet address Formloom's mail rule refuses: the host's sign-in vouches for the person.
    for (const who of ['ops@intranet', 'Build.Bot@ci']) {
      const made = await as(who, { method: 'POST', body: JSON.stringify({ title: `Form of ${who}` }) });
      t.is(made.status, 201, `${who}: ${await made.clone().text()}`);
      const list = (await (await as(who)).json()) as { total: number };
      t.is(list.total, 1, `${who} reads their own form back`);
      const users = await app.raw(`SELECT email FROM users WHERE email = '${who.toLowerCase()}'`);
      t.is(users.length, 1, `${who}: one user, kept as given (lower-case)`);
    }
    t.deepEqual(warnings, [], 'nothing to warn about');
    // What cannot name anyone (spaces, no @) is the host's bug: refused with a documented 400, and logged.
    for (const who of ['not an address', 'nobody', '@intranet']) {
      const res = await as(who);
      t.is(res.status, 400, who);
      t.like(await res.json(), { error: { code: 'BAD_REQUEST', field: 'email', reason: 'invalid_host_user' } }, who);
    }
    t.is(warnings.length, 3);
    t.regex(warnings[0]!.message, /hostUserAuthenticator: the host gave a user identity Formloom cannot keep/);
    t.false(JSON.stringify(warnings).includes('not an address'), 'the identity itself is not logged');
  });
}
