import anyTest, { type TestFn } from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { axeViolations, eventually, launchBrowser, mailedLink, startApp, type WorkspaceApp } from './helpers/workspace-browser';

/*
 * A newcomer's way into the workspace, in a real browser against the self-hosted app (docs/workspace.md,
 * "Signing in"; docs/accounts.md): the first account signs up, confirms its address from the mail, signs out
 * and in again with its password, with a link by email, after a password reset, and with a passkey added
 * from the account page (Chromium's virtual authenticator); API keys made on the account page work at once
 * and stop at revocation. axe finds nothing on any screen.
 */

type Ctx = { w: WorkspaceApp; browser: Browser };
const test = anyTest.serial as TestFn<Ctx>;

const EMAIL = 'grace@example.com';
const PASSWORD = 'correct horse battery';

test.before(async (t) => {
  t.context = { w: await startApp(), browser: await launchBrowser() };
});
test.after.always(async (t) => {
  await t.context.browser?.close();
  await t.context.w?.close();
});

async function newPage(t: { context: Ctx }, width = 1200): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await t.context.browser.newContext({ viewport: { width, height: 900 }, isMobile: width < 500, hasTouch: width < 500 });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

const heading = (page: Page) => page.locator('formloom-workspace main h1').first();

async function noViolations(t: { deepEqual: (a: unknown, b: unknown, m?: string) => void }, page: Page, screen: string) {
  t.deepEqual(await axeViolations(page), [], `axe on ${screen}`);
}

const seen = new Set<string>();

test('the first person signs up at phone width, lands on the forms list and confirms the address from the mail', async (t) => {
  const { w } = t.context;
  const { context, page, errors } = await newPage(t, 390);
  await page.goto(`${w.url}/`);
  // No account exists yet: the workspace opens on creating the admin account, not on a sign-in nobody could use.
  await page.waitForURL(`${w.url}/signup`);
  await t.notThrowsAsync(heading(page).filter({ hasText: 'Create the admin account' }).waitFor());
  await page.getByText('You are the first person here').waitFor();
  await noViolations(t, page, '/signup');
  // A short password is refused on the page with a message beside the form.
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('alert').filter({ hasText: 'at least 10 characters' }).waitFor();
  await page.getByLabel('First name').fill('Grace');
  await page.getByLabel('Last name').fill('Hopper');
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${w.url}/`);
  // At phone width the person's menu is named "Menu" instead of the address.
  await page.locator('formloom-workspace header').getByRole('button', { name: /Your menu/ }).getByText('Menu').waitFor();

  await page.goto(`${w.url}/account`);
  await page.getByText('not confirmed').waitFor();
  await page.getByText('administrator of this server').waitFor();
  await noViolations(t, page, '/account');

  const verify = await mailedLink(w, EMAIL, '/auth/verify', seen);
  t.true(verify.includes('#token='), 'the token rides in the fragment, never in a server log');
  await page.goto(verify);
  await page.getByText('Your address is confirmed').waitFor();
  t.false(page.url().includes('token'), 'the token leaves the address bar');
  await page.goto(`${w.url}/account`);
  await page.getByText('confirmed', { exact: true }).waitFor();
  t.deepEqual(errors, []);
  await context.close();
});

test('signs out, then in with the password by keyboard alone; a wrong password says so', async (t) => {
  const { w } = t.context;
  const { context, page, errors } = await newPage(t);
  await page.goto(`${w.url}/signin`);
  await heading(page).waitFor();
  await page.keyboard.press('Tab'); // skip link
  await page.keyboard.press('Tab'); // brand
  await page.keyboard.press('Tab');
  await page.keyboard.type(EMAIL);
  await page.keyboard.press('Tab');
  await page.keyboard.type('not the password');
  await page.keyboard.press('Enter');
  await page.getByRole('alert').filter({ hasText: 'do not match an account' }).waitFor();
  await page.getByLabel('Password').fill('');
  await page.getByLabel('Password').focus();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${w.url}/`);
  await page.goto(`${w.url}/account`);
  await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
  await page.waitForURL(`${w.url}/signin`);
  // The cookie is gone: the API refuses the browser now.
  const status = await page.evaluate(async () => (await fetch('/api/v1/forms')).status);
  t.is(status, 401);
  t.deepEqual(errors, []);
  await context.close();
});

test('a one-time link by email signs in, once', async (t) => {
  const { w } = t.context;
  const { context, page, errors } = await newPage(t);
  await page.goto(`${w.url}/signin`);
  await page.getByRole('button', { name: 'Email me a sign-in link instead' }).click();
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('We sent a sign-in link').waitFor();
  await noViolations(t, page, '/signin, link sent');
  const link = await mailedLink(w, EMAIL, '/auth/link', seen);
  await page.goto(link);
  await page.waitForURL(`${w.url}/`);
  await page.locator('formloom-workspace header').getByText(EMAIL, { exact: true }).waitFor();
  // The same link again, in another browser: used up.
  const other = await newPage(t);
  await other.page.goto(link);
  await other.page.getByRole('alert').filter({ hasText: 'no longer valid' }).waitFor();
  t.deepEqual([...errors, ...other.errors], []);
  await other.context.close();
  await context.close();
});

test('a password reset by email sets a new password and signs in; the old one stops working', async (t) => {
  const { w } = t.context;
  const { context, page, errors } = await newPage(t, 390);
  await page.goto(`${w.url}/signin`);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.waitForURL(`${w.url}/forgot`);
  await noViolations(t, page, '/forgot');
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByRole('button', { name: 'Send the reset link' }).click();
  await page.getByText('a reset link is on its way').waitFor();
  const link = await mailedLink(w, EMAIL, '/auth/reset', seen);
  await page.goto(link);
  await heading(page).filter({ hasText: 'Choose a new password' }).waitFor();
  await noViolations(t, page, '/auth/reset');
  await page.getByLabel('New password', { exact: true }).fill('an entirely new secret');
  await page.getByLabel('New password, again').fill('an entirely new secret');
  await page.getByRole('button', { name: 'Set the password and sign in' }).click();
  await page.waitForURL(`${w.url}/`);
  const old = await fetch(`${w.url}/api/v1/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json', origin: w.url }, body: JSON.stringify({ email: EMAIL, password: PASSWORD }) });
  t.is(old.status, 401);
  t.deepEqual(errors, []);
  await context.close();
});

test('API keys from the account page: shown once, work at once, stop when revoked', async (t) => {
  const { w } = t.context;
  const { context, page, errors } = await newPage(t);
  await page.goto(`${w.url}/signin`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill('an entirely new secret');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${w.url}/`);
  await page.goto(`${w.url}/account`);
  const keys = page.locator('fl-api-keys');
  await keys.getByLabel('Name').fill('CRM sync');
  await keys.getByLabel('Monthly limit').fill('1000');
  await keys.getByRole('button', { name: 'Create key' }).click();
  const secret = (await keys.locator('[data-secret]').textContent())!.trim();
  t.regex(secret, /^fl_[A-Za-z0-9]+_[0-9a-f]{64}$/);
  await keys.getByText('CRM sync').waitFor();
  await keys.getByText('1000 requests a month').waitFor();
  await noViolations(t, page, '/account with a new key');
  const use = () => fetch(`${w.url}/api/v1/forms`, { headers: { authorization: `Bearer ${secret}` } }).then((r) => r.status);
  t.is(await use(), 200);
  await keys.getByRole('button', { name: 'Done' }).click();
  t.is(await keys.locator('[data-secret]').count(), 0, 'the secret is not shown again');
  await keys.getByRole('button', { name: 'Revoke CRM sync' }).click();
  await keys.locator('fl-confirm').getByRole('button', { name: 'Revoke' }).click();
  await keys.getByText(/^revoked/).waitFor();
  t.is(await use(), 401);
  t.deepEqual(errors, []);
  await context.close();
});

test('a passkey added on the account page signs in (Chromium virtual authenticator)', async (t) => {
  const { w } = t.context;
  const { context, page, errors } = await newPage(t);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
  await page.goto(`${w.url}/signin`);
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByLabel('Password').fill('an entirely new secret');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${w.url}/`);
  await page.goto(`${w.url}/account`);
  const security = page.locator('fl-account-security');
  await security.getByLabel('Name of the new passkey').fill('Test laptop');
  await security.getByRole('button', { name: 'Add a passkey' }).click();
  await security.getByText('Passkey added').waitFor();
  await security.getByText('Test laptop').waitFor();
  await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
  await page.waitForURL(`${w.url}/signin`);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await page.waitForURL(`${w.url}/`);
  await page.locator('formloom-workspace header').getByText(EMAIL, { exact: true }).waitFor();
  const sessions = await eventually('the session list', () => page.evaluate(async () => (await fetch('/api/v1/account/sessions')).status));
  t.is(sessions, 200);
  t.deepEqual(errors, []);
  await context.close();
});

test('an invitee follows the mail link, creates an account on the invitation and is in the team', async (t) => {
  const { w } = t.context;
  const signin = await fetch(`${w.url}/api/v1/auth/signin`, { method: 'POST', headers: { 'content-type': 'application/json', origin: w.url }, body: JSON.stringify({ email: EMAIL, password: 'an entirely new secret' }) });
  const { csrf_token } = (await signin.json()) as { csrf_token: string };
  const cookie = signin.headers.get('set-cookie')!.split(';')[0]!;
  const as = (method: string, path: string, body?: unknown) =>
    fetch(`${w.url}/api/v1${path}`, { method, headers: { cookie, origin: w.url, 'x-formloom-csrf': csrf_token, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
  const team = await as('POST', '/teams', { name: 'Research' });
  t.is(team.status, 201, JSON.stringify(team.body));
  const invited = await as('POST', `/teams/${team.body.id}/invitations`, { email: 'lin@example.com', role: 'editor' });
  t.is(invited.status, 201, JSON.stringify(invited.body));

  const { context, page, errors } = await newPage(t, 390);
  await page.goto(await mailedLink(w, 'lin@example.com', '/teams/invite/', seen));
  await page.getByRole('heading', { name: 'Join the team Research on Formloom' }).waitFor();
  t.is(await page.locator('input[name="api_key"]').count(), 0, 'nobody is asked to paste a key');
  t.deepEqual(await axeViolations(page), [], 'axe on the invitation page');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.waitForURL(/\/signup\?invite=/);
  // The mailed link carries the invited address: the sign-up form shows it filled in (issue 36).
  await page.waitForFunction(() => {
    const signup = (globalThis as any).document.querySelector('formloom-workspace')?.shadowRoot?.querySelector('fl-signup');
    return signup?.shadowRoot?.querySelector('input[name="email"]')?.value === 'lin@example.com';
  });
  t.true(page.url().includes('email=lin%40example.com'));
  await page.getByLabel('Password').fill('lin has a long password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${w.url}/`);
  const teams: any = await page.evaluate(async () => (await fetch('/api/v1/teams')).json());
  t.deepEqual(
    teams.teams.map((x: { name: string; your_role: string }) => [x.name, x.your_role]),
    [['Research', 'editor']],
  );
  t.deepEqual(errors, []);
  await context.close();
});
