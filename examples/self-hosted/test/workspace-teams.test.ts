import anyTest, { type TestFn } from 'ava';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser, startApp, type WorkspaceApp } from './helpers/workspace-browser';

/*
 * The Teams screen with the self-hosted app's own sign-in (docs/workspace.md, "Teams"): its writes carry the
 * session's CSRF header, and the account page shows the plan and the seats of each team you own.
 */

type Ctx = { w: WorkspaceApp; browser: Browser };
const test = anyTest.serial as TestFn<Ctx>;

test.before(async (t) => {
  t.context = { w: await startApp(), browser: await launchBrowser() };
});
test.after.always(async (t) => {
  await t.context.browser?.close();
  await t.context.w?.close();
});

test('signed in with a session: create a team, invite, then see its seats on the account page', async (t) => {
  t.timeout(180_000);
  const { w, browser } = t.context;
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  page.setDefaultTimeout(90_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${w.url}/signup`);
    await page.getByLabel('Email').fill('lead@example.com');
    await page.getByLabel('First name').fill('Lee');
    await page.getByLabel('Last name').fill('Lead');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${w.url}/`);

    await page.locator('formloom-workspace header').getByRole('link', { name: 'Teams' }).click();
    await page.waitForURL(`${w.url}/teams`);
    await page.getByLabel('Team name').fill('Crew');
    await page.getByRole('button', { name: 'Create team' }).click();
    await page.waitForURL(/\/teams\/[^/]+$/);
    await page.getByLabel('Email address').fill('mate@example.com');
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByRole('status').filter({ hasText: 'Invitation sent to mate@example.com.' }).waitFor();

    await page.locator('formloom-workspace header').getByRole('button', { name: /Your menu/ }).click();
    await page.locator('formloom-workspace header').getByRole('link', { name: 'Your account' }).click();
    await page.waitForURL(`${w.url}/account`);
    const row = page.getByRole('list', { name: 'Seats of the teams you own' }).getByRole('listitem').filter({ hasText: 'Crew' });
    await row.filter({ hasText: /2 of \d+ seats used|2 seats used \(no limit\)/ }).waitFor();
    await page.getByText(/Your plan: \w+/).waitFor();
    t.deepEqual(await axeViolations(page), []);
    if (process.env.TEAM_SHOTS) await page.screenshot({ path: `${process.env.TEAM_SHOTS}/account-plan-390.png`, fullPage: true });
    t.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});
