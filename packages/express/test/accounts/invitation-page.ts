import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import { forEachDb, startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, launchBrowser, openPage } from '../helpers/browser';

/*
 * The team invitation page `/teams/invite/<token>` (docs/teams.md "Accepting in the browser"): in a real
 * browser on SQLite, an admin invites through the API, the invitee opens the mailed link, pastes their key
 * (keyboard only, at 360 px too) and accepts, and the API then lists them as a member with the role; a wrong
 * key and another account's key show the API's message on the page. Over HTTP on SQLite and PostgreSQL: the
 * page's statuses (200, 404 for an unknown token, 410 once accepted or cancelled), headers and what it
 * leaves out.
 */
let browser: Browser;
let app: TestApp;

test.before(async () => {
  browser = await launchBrowser();
  app = await startTestApp('sqlite');
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

async function invite(a: TestApp, role = 'editor') {
  const owner = await a.user('pro');
  const team = await a.api('POST', '/teams', { key: owner.key, body: { name: 'Acme <Research>' } });
  if (team.status !== 201) throw new Error(team.text);
  const invitee = await a.user();
  const inv = await a.api('POST', `/teams/${team.body.id}/invitations`, { key: owner.key, body: { email: invitee.email, role } });
  if (inv.status !== 201) throw new Error(inv.text);
  return { owner, invitee, teamId: team.body.id as string, inv: inv.body };
}

test('the invitee opens the mailed link, pastes their key with the keyboard and joins; the API lists them with the role', async (t) => {
  const { owner, invitee, teamId, inv } = await invite(app, 'editor');
  const { page, errors, close } = await openPage(browser, { width: 360 });
  try {
    const res = await page.goto(`${app.url}${inv.invite_url}`);
    t.is(res?.status(), 200);
    await page.getByRole('heading', { name: 'Join the team Acme <Research> on Formloom', level: 1 }).waitFor();
    const text = await page.locator('main').innerText();
    t.regex(text, /Role\s+editor/);
    t.regex(text, /Invited by\s+Test User\d+/);
    t.regex(text, new RegExp(`Expires\\s+${inv.expires_at.slice(0, 10)}`));
    t.false(text.includes(invitee.email), 'the invited address is not shown');
    t.false((await page.content()).includes(teamId), 'no team id in the page');
    // Nothing wider than the phone's screen.
    t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 360));
    t.deepEqual(await axeViolations(page), []);

    // Keyboard only: the field is the first stop, typed into, Enter submits.
    await page.keyboard.press('Tab');
    const field = page.getByLabel('Your API key');
    t.true(await field.evaluate((el) => el === (globalThis as any).document.activeElement));
    t.is(await field.getAttribute('type'), 'password');
    const sent: Array<{ url: string; auth: string | undefined }> = [];
    page.on('request', (r) => sent.push({ url: r.url(), auth: r.headers().authorization }));
    await page.keyboard.type(invitee.key);
    await page.keyboard.press('Enter');
    const status = page.getByRole('status');
    await status.getByText('You joined the team Acme <Research> as editor.').waitFor();
    t.deepEqual(sent, [{ url: `${app.url}/api/v1/invitations/${inv.token}/accept`, auth: `Bearer ${invitee.key}` }]);
    const kept = await page.evaluate(() => {
      const g = globalThis as any;
      return JSON.stringify({ ...g.localStorage }) + JSON.stringify({ ...g.sessionStorage }) + g.document.cookie + g.document.body.innerHTML;
    });
    t.false(kept.includes(invitee.key), 'the key is kept nowhere in the page');
    t.deepEqual(errors, []);

    const members = await app.api('GET', `/teams/${teamId}/members`, { key: owner.key });
    t.deepEqual(
      members.body.members.filter((m: any) => m.user_id === invitee.id).map((m: any) => [m.email, m.role]),
      [[invitee.email, 'editor']],
    );
    // The used link now says so.
    const again = await page.goto(`${app.url}${inv.invite_url}`);
    t.is(again?.status(), 410);
    await page.getByRole('heading', { name: 'This invitation is no longer valid' }).waitFor();
    t.regex(await page.locator('main').innerText(), /already been accepted/);
  } finally {
    await close();
  }
});

test("a wrong key and another account's key show the API's message on the page; the invitation stays open", async (t) => {
  const { owner, teamId, inv } = await invite(app, 'viewer');
  const stranger = await app.user();
  const { page, errors, close } = await openPage(browser);
  try {
    await page.goto(`${app.url}${inv.invite_url}`);
    const field = page.getByLabel('Your API key');
    const status = page.getByRole('status');
    await field.fill('fl_not_a_real_key');
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await status.getByText(/Check the API key and try again/).waitFor();
    t.is(await field.inputValue(), '', 'the key is not kept in the field');
    t.is(await field.getAttribute('aria-invalid'), 'true');
    t.true(await field.evaluate((el) => el === (globalThis as any).document.activeElement));

    await field.fill(stranger.key);
    await page.getByRole('button', { name: 'Accept invitation' }).click();
    await status.getByText('This invitation was sent to another email address').waitFor();
    t.true(await page.getByRole('button', { name: 'Accept invitation' }).isEnabled());
    t.deepEqual(errors, []);
    const pending = await app.api('GET', `/teams/${teamId}/invitations`, { key: owner.key });
    t.deepEqual(pending.body.invitations.map((i: any) => i.status), ['pending']);
  } finally {
    await close();
  }
});

test('an unknown token is a plain 404 page in the browser', async (t) => {
  const { page, errors, close } = await openPage(browser);
  try {
    const res = await page.goto(`${app.url}/teams/invite/${'0'.repeat(64)}`);
    t.is(res?.status(), 404);
    t.is(await page.locator('h1').innerText(), 'This invitation link is not valid');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

forEachDb(test, (it) => {
  it('the page over HTTP: 200 with the CSP and no-store, 404 unknown or malformed, 410 cancelled; no stack traces', async (t, a) => {
    const { owner, teamId, inv } = await invite(a, 'admin');
    const ok = await fetch(`${a.url}/teams/invite/${inv.token}`);
    const html = await ok.text();
    t.is(ok.status, 200);
    t.regex(ok.headers.get('content-security-policy') ?? '', /script-src 'self';/);
    t.is(ok.headers.get('cache-control'), 'no-store');
    t.is(ok.headers.get('referrer-policy'), 'no-referrer');
    t.false(/<script(?![^>]*\bsrc=)[^>]*>/.test(html), 'no inline script');
    t.true(html.includes('Acme &lt;Research&gt;'));
    t.false(html.includes(inv.id) || html.includes(teamId) || html.includes(inv.email));
    const js = await fetch(`${a.url}${html.match(/<script defer src="([^"]+)"/)![1]}`);
    t.is(js.status, 200);
    t.regex(js.headers.get('content-type') ?? '', /javascript/);

    for (const bad of ['f'.repeat(64), 'nope', '%00', 'x'.repeat(3000)]) {
      const res = await fetch(`${a.url}/teams/invite/${bad}`);
      const body = await res.text();
      t.true(res.status === 404 || res.status === 400, `${bad.slice(0, 8)}: ${res.status}`);
      t.false(/at .+\(.+:\d+:\d+\)|Error:/.test(body));
    }
    t.is((await a.api('DELETE', `/teams/${teamId}/invitations/${inv.id}`, { key: owner.key })).status, 200);
    const gone = await fetch(`${a.url}/teams/invite/${inv.token}`);
    t.is(gone.status, 410);
    t.regex(await gone.text(), /was cancelled/);
  });
});
