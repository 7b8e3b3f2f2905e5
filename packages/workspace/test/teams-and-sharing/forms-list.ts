import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/* The forms list (docs/workspace.md, "Forms"): search, team and published filters, duplicate, delete. */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

test('search, filters, duplicate, and delete after a confirmation', async (t) => {
  t.timeout(180_000);
  const owner = await app.user('business');
  const team = await app.api('POST', '/teams', { key: owner.key, body: { name: 'Research' } });
  t.is(team.status, 201);
  const make = (body: Record<string, unknown>) => app.api('POST', '/forms', { key: owner.key, body: { questions: [{ type: 'short_text', title: 'Name' }], ...body } });
  await make({ title: 'Alpha survey', published: true });
  await make({ title: 'Beta poll' });
  await make({ title: 'Team feedback', team_id: team.body.id });
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  const titles = async () => (await page.locator('fl-forms-list li h2').allTextContents()).map((s) => s.trim()).sort();
  const until = async (want: string[]) => {
    await page.waitForFunction(
      (w) => {
        const root = (globalThis as any).document.querySelector('formloom-workspace').shadowRoot.querySelector('fl-forms-list')?.shadowRoot;
        const got = [...(root?.querySelectorAll('li h2') ?? [])].map((h: any) => h.textContent.trim()).sort();
        return JSON.stringify(got) === JSON.stringify(w);
      },
      [...want].sort(),
    );
    return titles();
  };
  try {
    await page.goto(app.url);
    t.deepEqual(await until(['Alpha survey', 'Beta poll', 'Team feedback']), ['Alpha survey', 'Beta poll', 'Team feedback']);
    t.deepEqual(await axeViolations(page), []);

    await page.getByRole('searchbox', { name: 'Search' }).fill('beta');
    t.deepEqual(await until(['Beta poll']), ['Beta poll']);
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    await page.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'Published' });
    t.deepEqual(await until(['Alpha survey']), ['Alpha survey']);
    await page.getByRole('combobox', { name: /^Status/ }).selectOption({ label: 'Any' });
    await page.getByRole('combobox', { name: /^Team/ }).selectOption({ label: 'Research' });
    t.deepEqual(await until(['Team feedback']), ['Team feedback']);
    await page.getByRole('combobox', { name: /^Team/ }).selectOption({ label: 'All forms' });
    await until(['Alpha survey', 'Beta poll', 'Team feedback']);

    await page.getByRole('button', { name: 'Duplicate Beta poll' }).click();
    await until(['Alpha survey', 'Beta poll', 'Copy of Beta poll', 'Team feedback']);
    await page.getByRole('status').filter({ hasText: 'Duplicated "Beta poll".' }).waitFor();

    // Deleting asks first; Cancel keeps the form.
    await page.getByRole('button', { name: 'Delete Copy of Beta poll' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete "Copy of Beta poll"?' });
    await dialog.waitFor();
    t.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    t.deepEqual(await titles(), ['Alpha survey', 'Beta poll', 'Copy of Beta poll', 'Team feedback']);
    await page.getByRole('button', { name: 'Delete Copy of Beta poll' }).click();
    await dialog.getByRole('button', { name: 'Delete form' }).click();
    await until(['Alpha survey', 'Beta poll', 'Team feedback']);
    const all = await app.api('GET', '/forms', { key: owner.key });
    t.deepEqual(all.body.forms.map((f: any) => f.title).sort(), ['Alpha survey', 'Beta poll', 'Team feedback']);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('without a sign-in the workspace sends the browser to the sign-in screen', async (t) => {
  const { page, errors, close } = await openPage(browser, { width: 390 });
  try {
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'Sign in to Formloom' }).waitFor();
    t.is(new URL(page.url()).pathname, '/signin');
    t.deepEqual(await axeViolations(page), []);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
