import anyTest, { type TestFn } from 'ava';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, mailedLink, startApp, type WorkspaceApp } from './helpers/workspace-browser';

/*
 * Sign-up by mail in a real browser (docs/accounts.md "Who may sign up", `FORMLOOM_SIGNUP=open` after the
 * first account): the sign-up says where the link went and what to do with it, at phone width without
 * sideways scrolling, and lets the person start over; `/auth/finish` makes the account with the password
 * typed again, says so when it is not that password, and for a link that can no longer make an account
 * (none, used, the address taken meanwhile) says what to do instead, without a form that cannot work.
 */

type Ctx = { w: WorkspaceApp; browser: Browser };
const test = anyTest.serial as TestFn<Ctx>;

const PASSWORD = 'my chosen long password';
const seen = new Set<string>();

test.before(async (t) => {
  const w = await startApp({ FORMLOOM_SIGNUP: 'open' });
  // The first account is made at once; every later sign-up goes by mail.
  const first = await fetch(`${w.url}/api/v1/auth/signup`, { method: 'POST', headers: { 'content-type': 'application/json', origin: w.url }, body: JSON.stringify({ email: 'first@example.com', password: PASSWORD }) });
  if (first.status !== 201) throw new Error(`first sign-up: ${first.status}`);
  t.context = { w, browser: await launchBrowser() };
});
test.after.always(async (t) => {
  await t.context.browser?.close();
  await t.context.w?.close();
});

async function phone(t: { context: Ctx }) {
  const context = await t.context.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { context, page, errors };
}

const scrollWidth = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth as number);

async function signUp(page: Page, w: WorkspaceApp, email: string) {
  await page.goto(`${w.url}/signup`);
  await page.getByText('your account is made when you open it').waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
}

test('sign-up says where the link went; the link makes the account with the password typed again, once', async (t) => {
  const { w } = t.context;
  const { context, page, errors } = await phone(t);
  // A long address must not push the notice past a phone's width.
  const email = `a.rather.long.name.for.a.mailbox.${Date.now()}@subdomain.example.com`;
  await signUp(page, w, email);
  await page.getByText(email).waitFor();
  await page.getByText('within 24 hours').waitFor();
  t.true((await scrollWidth(page)) <= 390, 'no sideways scrolling at 390 px');
  t.deepEqual(await axeViolations(page), [], 'axe on the notice');
  // Starting over shows the form again; a second sign-up mails a second link.
  await page.getByRole('link', { name: 'Use another address' }).click();
  await page.getByRole('button', { name: 'Create account' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  const firstLink = await mailedLink(w, email, '/auth/finish', seen);
  const secondLink = await mailedLink(w, email, '/auth/finish', seen);

  await page.goto(firstLink);
  await page.getByRole('heading', { name: 'Finish making your account' }).waitFor();
  t.false(page.url().includes('token'), 'the token leaves the address bar');
  t.deepEqual(await axeViolations(page), [], 'axe on /auth/finish');
  await page.getByRole('button', { name: 'Make my account' }).click();
  await page.getByRole('alert').filter({ hasText: 'Type the password you chose' }).waitFor();
  await page.getByLabel('Your password').fill('not the password I chose');
  await page.getByRole('button', { name: 'Make my account' }).click();
  await page.getByRole('alert').filter({ hasText: 'not the password you chose when you signed up' }).waitFor();
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Make my account' }).click();
  await page.waitForURL(`${w.url}/`);
  const session: any = await page.evaluate(async () => (await fetch('/api/v1/auth/session')).json());
  t.is(session.user.email, email);
  t.true(session.user.email_verified, 'the link proved the address');

  // The same link again: used. No form, a way on.
  await page.goto('about:blank');
  await page.goto(firstLink);
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Make my account' }).click();
  await page.getByRole('alert').filter({ hasText: 'expired or was already used' }).waitFor();
  t.is(await page.getByLabel('Your password').count(), 0, 'no form for a dead link');
  await page.getByRole('link', { name: 'Sign up again' }).waitFor();
  // The second link, for an address that has an account by now.
  await page.goto('about:blank');
  await page.goto(secondLink);
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Make my account' }).click();
  await page.getByRole('alert').filter({ hasText: 'has an account already' }).waitFor();
  await page.getByRole('link', { name: 'Reset the password' }).waitFor();
  t.true((await scrollWidth(page)) <= 390);
  t.deepEqual(errors, []);
  await context.close();
});

test('/auth/finish without the link says where the link is, with no form', async (t) => {
  const { w } = t.context;
  const { context, page, errors } = await phone(t);
  await page.goto(`${w.url}/auth/finish`);
  await page.getByRole('alert').filter({ hasText: 'opens from the link in your sign-up mail' }).waitFor();
  t.is(await page.getByRole('button', { name: 'Make my account' }).count(), 0);
  await page.getByRole('link', { name: 'Sign up again' }).click();
  await page.waitForURL(`${w.url}/signup`);
  t.deepEqual(errors, []);
  await context.close();
});
