import anyTest, { type TestFn } from 'ava';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { AccountService } from '@formloom/core';
import { downloadedBytes } from '@formloom/test-browser';
import { axeViolations, eventually, launchBrowser, mailedLink, startApp, type WorkspaceApp } from './helpers/workspace-browser';

/*
 * First run and the instance admin (docs/accounts.md, "The admin area"; docs/workspace.md), in a real browser
 * against the self-hosted app: an empty instance opens on "Create the admin account"; the admin finds people,
 * changes a plan (webhooks unlock at once for that person), adds credits, revokes a key, retries and drops
 * stuck outbox items, and signs out from the person's menu; someone else gets no admin area and 403 from
 * the admin routes. axe finds nothing; nothing scrolls sideways at 390 px. ADMIN_SHOTS=<dir> saves screenshots.
 */

type Ctx = { w: WorkspaceApp; browser: Browser };
const test = anyTest.serial as TestFn<Ctx>;

const ADMIN = 'ada@example.com';
const BOB = 'bob@example.com';
const PASSWORD = 'correct horse battery';
const shots = process.env.ADMIN_SHOTS;

test.before(async (t) => {
  t.context = { w: await startApp({ FORMLOOM_SIGNUP: 'open' }), browser: await launchBrowser() };
});
test.after.always(async (t) => {
  await t.context.browser?.close();
  await t.context.w?.close();
});

async function open(t: { context: Ctx }, width: number): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await t.context.browser.newContext({ viewport: { width, height: 900 }, isMobile: width < 500, hasTouch: width < 500 });
  const page = await context.newPage();
  page.setDefaultTimeout(60_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

const header = (page: Page) => page.locator('formloom-workspace header');
// Evaluated in the page: `globalThis` is its window there (this file compiles without the DOM types).
const sideways = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth) as Promise<number>;

async function openMenu(page: Page) {
  await header(page).getByRole('button', { name: /Your menu/ }).click();
}

let bobKey = '';

test('an empty instance opens on "Create the admin account", and its admin reaches the admin area from the menu', async (t) => {
  t.timeout(240_000);
  const { w } = t.context;
  const { context, page, errors } = await open(t, 390);
  // Even the sign-in address leads there while nobody could sign in.
  await page.goto(`${w.url}/signin`);
  await page.waitForURL(`${w.url}/signup`);
  await page.goto(`${w.url}/`);
  await page.waitForURL(`${w.url}/signup`);
  await page.locator('formloom-workspace main h1').filter({ hasText: 'Create the admin account' }).waitFor();
  t.deepEqual(await axeViolations(page), [], 'axe on the first run');
  if (shots) await page.screenshot({ path: `${shots}/first-run-390.png`, fullPage: true });
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(`${w.url}/`);
  await openMenu(page);
  await header(page).getByRole('link', { name: 'Admin area' }).click();
  await page.waitForURL(`${w.url}/admin`);
  await page.getByText('1 person').waitFor();
  // The admin's own account starts on the free plan; one click lifts it.
  await page.getByRole('button', { name: 'Move my account to Enterprise' }).click();
  await page.locator('fl-admin .badge', { hasText: 'Enterprise' }).waitFor();
  await page.getByRole('button', { name: 'Move my account to Enterprise' }).waitFor({ state: 'detached' });
  t.deepEqual(await axeViolations(page), [], 'axe on the admin area');
  t.true((await sideways(page)) <= 0, 'no sideways scroll at 390 px');
  if (shots) await page.screenshot({ path: `${shots}/admin-people-390.png`, fullPage: true });
  t.deepEqual(errors, []);
  await context.close();
});

test('someone else gets no admin area: no menu entry, a refusal on the page, 403 from every admin route', async (t) => {
  t.timeout(240_000);
  const { w } = t.context;
  const { context, page, errors } = await open(t, 1440);
  await page.goto(`${w.url}/signup`);
  await page.getByLabel('First name').fill('Bob');
  await page.getByLabel('Email').fill(BOB);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Check your mail').waitFor();
  await page.goto(await mailedLink(w, BOB, '/auth/finish'));
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Make my account' }).click();
  await page.waitForURL(`${w.url}/`);
  await openMenu(page);
  await header(page).getByRole('link', { name: 'Your account' }).waitFor();
  t.is(await header(page).getByRole('link', { name: 'Admin area' }).count(), 0);
  await page.goto(`${w.url}/admin`);
  await page.getByText('Only the administrator of this server can open this page.').waitFor();
  for (const [method, path] of [['GET', '/admin/users'], ['GET', '/admin/outbox'], ['DELETE', '/admin/outbox/obx_x'], ['GET', '/admin/backups'], ['POST', '/admin/backups']] as const) {
    const status = await page.evaluate(async ([m, p]) => {
      const csrf = await fetch('/api/v1/auth/session').then((r) => r.json()).then((b: any) => b.csrf_token as string);
      return (await fetch(`/api/v1${p}`, { method: m, headers: { 'x-formloom-csrf': csrf } })).status;
    }, [method, path]);
    t.is(status, 403, `${method} ${path} with Bob's session`);
  }
  const bob = await w.app.formloom.service(AccountService).findUser(BOB);
  bobKey = (await w.app.formloom.service(AccountService).createKey(bob.id)).api_key;
  const byKey = await fetch(`${w.url}/api/v1/admin/users/${bob.id}`, { method: 'PATCH', headers: { authorization: `Bearer ${bobKey}`, 'content-type': 'application/json' }, body: JSON.stringify({ plan: 'enterprise' }) });
  t.is(byKey.status, 403, 'nobody raises their own plan');
  t.deepEqual(errors, []);
  await context.close();
});

test("the admin changes Bob's plan (webhooks unlock at once), adds credits, revokes his key, handles stuck items, signs out", async (t) => {
  t.timeout(240_000);
  const { w } = t.context;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${w.url}/api/v1${path}`, { ...init, headers: { authorization: `Bearer ${bobKey}`, 'content-type': 'application/json' } });
  const form = (await (await api('/forms', { method: 'POST', body: JSON.stringify({ title: 'Orders' }) })).json()) as { id: string };
  const hook = () => api(`/forms/${form.id}/webhooks`);
  t.is((await hook()).status, 403, 'free plan: no webhooks');

  const { context, page, errors } = await open(t, 1440);
  await page.goto(`${w.url}/signin`);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${w.url}/`);
  await page.goto(`${w.url}/admin`);
  await page.getByLabel('Name or email').fill('bob');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('1 person').waitFor();
  await page.getByRole('button', { name: /Bob/ }).click();
  const person = page.locator('fl-admin-person');
  await person.getByRole('combobox', { name: 'Plan', exact: true }).selectOption('pro');
  await person.getByRole('button', { name: 'Change plan' }).click();
  await person.getByText('Moved to the Pro plan.').waitFor();
  t.is((await hook()).status, 200, 'pro plan: webhooks at once');

  await person.getByPlaceholder('How many to add').fill('500');
  await person.getByRole('button', { name: 'Add credits' }).click();
  await person.getByText(/^Added 500 credits\. The balance is now \d+\.$/).waitFor();
  await person.getByRole('button', { name: /Revoke the key/ }).click();
  await page.getByRole('button', { name: 'Revoke', exact: true }).click();
  await person.getByText(/^Revoked /).waitFor();
  t.is((await api('/forms')).status, 401, 'the revoked key stops at once');
  t.deepEqual(await axeViolations(page), [], 'axe with a person open');
  if (shots) await page.screenshot({ path: `${shots}/admin-person-1440.png`, fullPage: true });

  // Two deliveries that could not go out (their kind has no sender here, so nothing else touches them).
  const now = new Date().toISOString();
  for (const id of ['obx_stuck_one', 'obx_stuck_two']) {
    await w.app.formloom.storage.outbox.enqueue({ id, kind: 'digest', payload: {}, status: 'pending', attempts: 3, next_attempt_at: '2100-01-01T00:00:00.000Z', locked_by: null, locked_until: null, last_error: 'The receiving server did not answer', created_at: now, updated_at: now });
  }
  await page.getByRole('link', { name: 'Stuck mail and deliveries' }).click();
  await page.waitForURL(`${w.url}/admin/outbox`);
  const rows = page.locator('fl-admin-outbox li');
  await eventually('two stuck items', async () => (await rows.count()) === 2);
  await page.getByText('What went wrong: The receiving server did not answer').first().waitFor();
  t.deepEqual(await axeViolations(page), [], 'axe on stuck items');
  if (shots) await page.screenshot({ path: `${shots}/admin-outbox-1440.png`, fullPage: true });
  await rows.first().getByRole('button', { name: 'Try again now' }).click();
  await page.getByText('It will be sent again now.').waitFor();
  t.is((await w.app.formloom.storage.outbox.findById('obx_stuck_one'))!.next_attempt_at < '2100', true, 'due now');
  await rows.last().getByRole('button', { name: 'Give up' }).click();
  await page.getByRole('button', { name: 'Give up', exact: true }).last().click();
  await page.getByText('It was given up on.').waitFor();
  t.is(await w.app.formloom.storage.outbox.findById('obx_stuck_two'), null);

  await openMenu(page);
  await header(page).getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${w.url}/signin`);
  await page.locator('formloom-workspace main h1').filter({ hasText: 'Sign in to Formloom' }).waitFor();
  // With accounts in place, / asks to sign in again.
  await page.goto(`${w.url}/`);
  await page.waitForURL(`${w.url}/signin`);
  t.deepEqual(errors, []);
  await context.close();
});

test('the admin area at 390 px: stuck items and a person opened fit without sideways scroll', async (t) => {
  t.timeout(240_000);
  const { w } = t.context;
  const { context, page, errors } = await open(t, 390);
  await page.goto(`${w.url}/signin`);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${w.url}/`);
  await page.goto(`${w.url}/admin`);
  await page.getByRole('button', { name: /Bob/ }).click();
  await page.locator('fl-admin-person').getByText('API keys').waitFor();
  t.true((await sideways(page)) <= 0, 'a person opened');
  await openMenu(page);
  t.true((await sideways(page)) <= 0, 'the menu open');
  t.deepEqual(await axeViolations(page), []);
  if (shots) await page.screenshot({ path: `${shots}/admin-menu-390.png`, fullPage: true });
  // Escape closes the menu and gives the focus back to its button.
  await page.keyboard.press('Escape');
  await header(page).getByRole('link', { name: 'Admin area' }).waitFor({ state: 'hidden' });
  t.is(await header(page).getByRole('button', { name: /Your menu/ }).getAttribute('aria-expanded'), 'false');
  const now = new Date().toISOString();
  await w.app.formloom.storage.outbox.enqueue({ id: 'obx_stuck_three', kind: 'mail', payload: {}, status: 'pending', attempts: 5, next_attempt_at: '2100-01-01T00:00:00.000Z', locked_by: null, locked_until: null, last_error: 'No mail server is set up', created_at: now, updated_at: now });
  await page.goto(`${w.url}/admin/outbox`);
  await page.locator('fl-admin-outbox li').filter({ hasText: 'No mail server is set up' }).waitFor();
  if (shots) await page.screenshot({ path: `${shots}/admin-outbox-390.png`, fullPage: true });
  t.true((await sideways(page)) <= 0, 'stuck items');
  t.deepEqual(errors, []);
  await context.close();
});

test('the admin takes a backup from the admin area and downloads it; only archive names can be downloaded', async (t) => {
  t.timeout(240_000);
  const { w } = t.context;
  for (const width of [1440, 390]) {
    const { context, page, errors } = await open(t, width);
    await page.goto(`${w.url}/signin`);
    await page.getByLabel('Email').fill(ADMIN);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${w.url}/`);
    await page.goto(`${w.url}/admin/backups`);
    const backups = page.locator('fl-admin-backups');
    if (width === 1440) {
      await backups.getByText('No backups yet.').waitFor();
      await backups.getByText('No backups are scheduled.').waitFor();
      if (shots) await page.screenshot({ path: `${shots}/admin-backups-empty-${width}.png`, fullPage: true });
      await backups.getByRole('button', { name: 'Back up now' }).click();
      await backups.getByText(/^Backup taken: \d/).waitFor();
      const [download] = await Promise.all([page.waitForEvent('download'), backups.getByRole('link', { name: /^Download/ }).first().click()]);
      const bytes = await downloadedBytes(download);
      t.deepEqual([...bytes.subarray(0, 2)], [0x1f, 0x8b], 'a gzip archive');
      t.regex(download.suggestedFilename(), /^formloom-backup-.*\.tar\.gz$/);
      const probe = await page.evaluate(async () => {
        const r = await fetch('/api/v1/admin/backups/..%2Fsecret.key');
        return r.status;
      });
      t.is(probe, 404, 'a path outside the backup folder is not found');
    }
    await backups.getByRole('link', { name: /^Download/ }).first().waitFor();
    t.deepEqual(await axeViolations(page), [], `axe at ${width}`);
    t.true((await sideways(page)) <= 0, `no sideways scroll at ${width}`);
    if (shots) await page.screenshot({ path: `${shots}/admin-backups-${width}.png`, fullPage: true });
    t.deepEqual(errors, []);
    await context.close();
  }
});

test('a person deletes their own account from the account page: what goes is listed, the password is asked, then they are signed out for good', async (t) => {
  t.timeout(240_000);
  const { w } = t.context;
  const cara = 'cara@example.com';
  const { context, page, errors } = await open(t, 390);
  await page.goto(`${w.url}/signup`);
  await page.getByLabel('First name').fill('Cara');
  await page.getByLabel('Email').fill(cara);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByText('Check your mail').waitFor();
  await page.goto(await mailedLink(w, cara, '/auth/finish'));
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Make my account' }).click();
  await page.waitForURL(`${w.url}/`);
  await page.goto(`${w.url}/account`);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download my data' }).click()]);
  t.regex(download.suggestedFilename(), /^formloom-cara@example\.com-\d{4}-\d{2}-\d{2}\.zip$/);
  t.deepEqual([...(await downloadedBytes(download)).subarray(0, 2)], [0x50, 0x4b], 'a ZIP file');
  const card = page.locator('fl-account-delete');
  await card.getByRole('button', { name: 'Delete my account…' }).click();
  await card.getByText('Your API keys, passkeys and every place you are signed in').waitFor();
  t.deepEqual(await axeViolations(page), [], 'axe with the list open');
  t.true((await sideways(page)) <= 0, 'no sideways scroll at 390 px');
  if (shots) await page.screenshot({ path: `${shots}/account-delete-390.png`, fullPage: true });
  await card.getByLabel('Your password').fill('not my password');
  await card.getByRole('button', { name: 'Delete my account' }).click();
  await card.getByText('That is not your password.').waitFor();
  await card.getByLabel('Your password').fill(PASSWORD);
  await card.getByRole('button', { name: 'Delete my account' }).click();
  await page.waitForURL(`${w.url}/signin`);
  await page.getByLabel('Email').fill(cara);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('alert').filter({ hasText: /wrong|not/i }).first().waitFor();
  t.is(await w.app.formloom.storage.users.findByEmail(cara), null);
  t.deepEqual(errors.filter((e) => !/401|403/.test(e)), []);
  await context.close();
});

test("the admin deletes someone's account from the person's row, after a confirmation that says what goes", async (t) => {
  t.timeout(240_000);
  const { w } = t.context;
  const dan = await w.app.formloom.service(AccountService).createUser({ email: 'dan@example.com', first_name: 'Dan' });
  const { context, page, errors } = await open(t, 1440);
  await page.goto(`${w.url}/signin`);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${w.url}/`);
  await page.goto(`${w.url}/admin`);
  await page.getByRole('button', { name: /Dan/ }).click();
  await page.locator('fl-admin-person').getByRole('button', { name: 'Delete this account' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText(/Their account goes with/).waitFor();
  if (shots) await page.screenshot({ path: `${shots}/admin-delete-1440.png` });
  t.deepEqual(await axeViolations(page), []);
  await dialog.getByRole('button', { name: 'Delete the account' }).click();
  await page.getByRole('button', { name: /Dan/ }).waitFor({ state: 'detached' });
  t.is(await w.app.formloom.storage.users.findById(dan.id), null);
  t.deepEqual(errors.filter((e) => !/404/.test(e)), []);
  await context.close();
});

test("the admin finds a respondent's responses across the server, downloads them and erases them", async (t) => {
  t.timeout(240_000);
  const { w } = t.context;
  const accounts = w.app.formloom.service(AccountService);
  const eve = await accounts.createUser({ email: 'eve@example.com' });
  const key = (await accounts.createKey(eve.id)).api_key;
  const auth = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const form = (await (await fetch(`${w.url}/api/v1/forms`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Newsletter', published: true, questions: [{ type: 'email', title: 'Email' }] }) })).json()) as { id: string; slug: string; questions: { id: string }[] };
  const sent = await fetch(`${w.url}/api/v1/public/forms/${form.slug}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ answers: [{ question_id: form.questions[0].id, value: 'reader@example.org' }] }) });
  t.is(sent.status, 201);
  const { context, page, errors } = await open(t, 390);
  await page.goto(`${w.url}/signin`);
  await page.getByLabel('Email').fill(ADMIN);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${w.url}/`);
  await page.goto(`${w.url}/admin/respondents`);
  const panel = page.locator('fl-respondent-data');
  await panel.getByLabel('Email address they gave').fill('Reader@Example.org');
  await panel.getByRole('button', { name: 'Find their responses' }).click();
  await panel.getByText('One response found.').waitFor();
  await panel.getByText('Newsletter').waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download as JSON' }).click()]);
  t.like(JSON.parse(Buffer.from(await downloadedBytes(download)).toString('utf8')), { total: 1 });
  t.deepEqual(await axeViolations(page), []);
  t.true((await sideways(page)) <= 0, 'no sideways scroll at 390 px');
  if (shots) await page.screenshot({ path: `${shots}/admin-respondent-390.png`, fullPage: true });
  await panel.getByRole('button', { name: 'Erase it' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Erase' }).click();
  await panel.getByText('Erased one response in one form.').waitFor();
  const left = (await (await fetch(`${w.url}/api/v1/forms/${form.id}/responses`, { headers: auth })).json()) as { total: number };
  t.is(left.total, 0);
  t.deepEqual(errors, []);
  await context.close();
});
