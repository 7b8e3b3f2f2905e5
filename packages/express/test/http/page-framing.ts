import test from '../helpers/bounded-test';
import { startTestApp, type TestApp } from '../helpers/app';
import { contractForm, lazyRenderer } from '../helpers/signing';

/*
 * Who may frame which page (docs/security.md "Security headers"): the `/f/` form pages follow `embedOrigins`
 * (embedding is what they are for); the signer's page and the team invitation page are never framed,
 * whatever `embedOrigins` says, since their buttons sign or join and a decoy page could get them clicked
 * through a frame (issue 34, item 5). Their error pages (unknown code or token) are not framed either.
 */
let app: TestApp;
test.before(async () => {
  app = await startTestApp('sqlite', { signedDocuments: lazyRenderer(), embedOrigins: ['https://shop.example.com'] });
});
test.after.always(async () => {
  await app?.close();
});

const frameAncestors = (res: Response) =>
  (res.headers.get('content-security-policy') ?? '')
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .find((p) => p[0] === 'frame-ancestors')
    ?.slice(1);

async function notFramable(t: import('ava').ExecutionContext, path: string, status: number) {
  const res = await fetch(`${app.url}${path}`);
  t.is(res.status, status, path);
  t.deepEqual(frameAncestors(res), ["'none'"], path);
  t.is(res.headers.get('x-frame-options'), 'DENY', path);
}

test('the signer page and the invitation page deny framing; the /f/ page keeps the embedding origins', async (t) => {
  const { user, form } = await contractForm(app, 'pro');
  const session = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body: {} });
  t.is(session.status, 201, session.text);
  await notFramable(t, `/s/${session.body.signer_links[0].short_code}`, 200);
  await notFramable(t, '/s/no-such-code', 404);

  const team = await app.api('POST', '/teams', { key: user.key, body: { name: 'Framing' } });
  const inv = await app.api('POST', `/teams/${team.body.id}/invitations`, { key: user.key, body: { email: 'framed@example.com', role: 'editor' } });
  t.is(inv.status, 201, inv.text);
  await notFramable(t, `/teams/invite/${inv.body.token}`, 200);
  await notFramable(t, `/teams/invite/${'0'.repeat(64)}`, 404);

  const published = await app.api('POST', '/forms', { key: user.key, body: { title: 'Embeddable', published: true, questions: [{ type: 'short_text', title: 'Name' }] } });
  const page = await fetch(`${app.url}/f/${published.body.slug}`);
  t.is(page.status, 200);
  t.deepEqual(frameAncestors(page), ['https://shop.example.com']);
  t.is(page.headers.get('x-frame-options'), null, 'no X-Frame-Options: it cannot name the origins allowed');
});
