import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Publishing a form without questions (issue 34, item 9; docs/workspace.md "Publishing"): the API allows it,
 * so the builder does too, but says what respondents would get and asks before publishing.
 */
let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

test('the publish tab warns about a form without questions and asks before publishing it', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const created = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Nothing to ask' } });
  t.is(created.status, 201);
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${created.body.id}/publish`);
    const note = page.getByRole('note').filter({ hasText: 'This form has no questions.' });
    await note.waitFor();
    t.deepEqual(await axeViolations(page), []);

    // Cancelled: nothing is published.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish a form without questions?' });
    await dialog.waitFor();
    t.deepEqual(await axeViolations(page), []);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    t.false((await app.api('GET', `/forms/${created.body.id}`, { key: owner.key })).body.published);

    // Confirmed: published, as the API allows.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await dialog.getByRole('button', { name: 'Publish anyway' }).click();
    await page.getByText('Version 1 is live.').waitFor();
    t.true((await app.api('GET', `/forms/${created.body.id}`, { key: owner.key })).body.published);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a form with questions is published without the question', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const created = await app.api('POST', '/forms', { key: owner.key, body: { title: 'One question', questions: [{ type: 'short_text', title: 'Name' }] } });
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${created.body.id}/publish`);
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Version 1 is live.').waitFor();
    t.is(await page.getByRole('note').filter({ hasText: 'This form has no questions.' }).count(), 0);
    t.is(await page.getByRole('dialog').count(), 0);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
