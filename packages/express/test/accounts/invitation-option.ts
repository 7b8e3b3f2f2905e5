import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createPublicPagesRouter } from '../../src';
import { startTestApp, type TestApp } from '../helpers/app';

let app: TestApp;
test.before(async () => {
  app = await startTestApp('sqlite');
});
test.after.always(async () => app?.close());

/** The pages router with `invitations` as given, in a host that answers its own 404 for what no one serves. */
async function host(invitations: Parameters<typeof createPublicPagesRouter>[0]['invitations']) {
  const h = express();
  h.use(createPublicPagesRouter({ formloom: app.formloom, rateLimits: false, invitations }));
  h.use((_req, res) => res.status(404).send('host 404'));
  const server = h.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

test('the invitation link can send invitees to the host\'s own accept page, or not be served at all', async (t) => {
  const owner = await app.user('pro');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Own page' } })).body;
  const inv = (await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: 'new@example.com', role: 'editor' } })).body;
  t.is(inv.invite_url, `/teams/invite/${inv.token}`);

  const own = await host({ acceptUrl: (token) => `/account/invitations/${encodeURIComponent(token)}` });
  const off = await host(false);
  const page = await host(undefined);
  t.teardown(() => [own, off, page].forEach((s) => s.close()));

  const redirected = await fetch(`${own.url}${inv.invite_url}`, { redirect: 'manual' });
  t.is(redirected.status, 303);
  t.is(redirected.headers.get('location'), `/account/invitations/${inv.token}`);
  t.is(redirected.headers.get('referrer-policy'), 'no-referrer');
  t.is(redirected.headers.get('cache-control'), 'no-store');

  const notServed = await fetch(`${off.url}${inv.invite_url}`);
  t.is(notServed.status, 404);
  t.is(await notServed.text(), 'host 404');

  // The default: Formloom's own page.
  const own_ = await fetch(`${page.url}${inv.invite_url}`);
  t.is(own_.status, 200);
  t.regex(await own_.text(), /Join the team Own page/);
});
