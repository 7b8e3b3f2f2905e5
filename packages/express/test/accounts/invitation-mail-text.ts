import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createPublicPagesRouter } from '../../src';
import { forEachDb, type TestApp } from '../helpers/app';
import { mailbox, until } from '../helpers/session-client';

/*
 * The invitation mail speaks to people, not to API clients (issue 36, "plain words"): it says to open the link
 * and sign in or sign up, never to call an endpoint with an API key, and its link carries the invited address
 * so the workspace's sign-up form opened from the invitation page is prefilled with it.
 */
const mails = mailbox();

async function pages(app: TestApp) {
  const h = express();
  h.use(createPublicPagesRouter({ formloom: app.formloom, rateLimits: false, invitations: { signInUrl: '/signin?invite={token}', signUpUrl: '/signup?invite={token}' } }));
  const server = h.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

forEachDb(
  test,
  (it) => {
    it('the invitation mail says to open the link and sign in or sign up, and its link prefills the invited address', async (t, app) => {
      app.formloom.worker.start({ pollMs: 50 });
      const owner = await app.user('pro');
      const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Plain words' } })).body;
      const email = `bob+${app.kind}@example.com`;
      const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email, role: 'editor' } });
      t.is(inv.status, 201);
      await until(() => mails.messages.some((m) => m.to === email));
      const text = mails.messages.find((m) => m.to === email)!.text ?? '';

      t.regex(text, /invited you to join the team "Plain words" on Formloom as editor/);
      t.regex(text, /Open this link to accept: /);
      t.true(text.includes(`Then sign in with ${email}, or create your account with this address`));
      t.false(/POST \/|\/api\/v1|API key|accept with/.test(text), text);
      const link = /(https?:\/\/\S+\/teams\/invite\/\S+)/.exec(text)![1]!;
      const url = new URL(link);
      t.is(url.pathname, `/teams/invite/${inv.body.token}`);
      t.is(url.searchParams.get('email'), email);

      // The invitation page passes the address on to the sign-in and sign-up screens it links to.
      const host = await pages(app);
      t.teardown(() => host.close());
      const html = await (await fetch(`${host.url}${url.pathname}${url.search}`)).text();
      const q = `invite=${inv.body.token}&amp;email=${encodeURIComponent(email)}`;
      t.true(html.includes(`href="/signup?${q}"`), html);
      t.true(html.includes(`href="/signin?${q}"`));
      // Something that is not an address is not passed on.
      const odd = await (await fetch(`${host.url}${url.pathname}?email=${encodeURIComponent('<b>x</b>')}`)).text();
      t.true(odd.includes(`href="/signup?invite=${inv.body.token}"`));
    });
  },
  { mailer: mails },
);
