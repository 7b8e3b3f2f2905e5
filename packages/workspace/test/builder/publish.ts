import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, withClipboard } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Publishing from the header and the form's address (issue 36; docs/workspace.md "Publishing" and "The
 * form's address"): the header's Publish button shows the state and stays in view while the page scrolls;
 * publishing opens the link with Copy, Open and its QR code; restoring the live version leaves the header
 * and the Publish tab agreeing; the address is edited in Settings (checked, 409 shown, old link 404).
 * FORMLOOM_SHOTS=<dir> saves screenshots there.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

async function shot(page: Page, name: string) {
  const dir = process.env.FORMLOOM_SHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` });
}

const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
const state = (page: Page) => page.locator('#publish-state');
/** The header button's box is inside the viewport. */
const inView = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).evaluate((b: any) => {
    const r = b.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= (globalThis as any).innerHeight && r.height > 0;
  });

for (const width of [390, 1440]) {
  test(`${width} px: the header's Publish button shows the state, stays in view, and publishing shows the link, copy, QR and Open`, async (t) => {
    t.timeout(300_000);
    const owner = await app.user();
    const questions = Array.from({ length: 14 }, (_, i) => ({ type: 'long_text', title: `Question number ${i + 1}`, description: 'A longer description so that the page scrolls well past the first screen.' }));
    const created = await app.api('POST', '/forms', { key: owner.key, body: { title: `Publish ${width}`, questions } });
    const id = created.body.id;
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/forms/${id}/settings`);
      await state(page).filter({ hasText: 'Draft' }).waitFor();
      const publish = page.getByRole('button', { name: 'Publish', exact: true });
      await publish.waitFor();
      // Scrolled to the bottom of a long settings page: the button is still on screen.
      await page.evaluate(() => (globalThis as any).scrollTo(0, (globalThis as any).document.documentElement.scrollHeight));
      await page.waitForFunction(() => (globalThis as any).scrollY > 300);
      t.true(await inView(page, 'Publish'), 'the Publish button stays in view');
      t.is(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), width, 'no sideways scrolling');
      await shot(page, `builder-publish-header-scrolled-${width}`);
      t.deepEqual(await axeViolations(page), []);

      await publish.click();
      const sheet = page.getByRole('dialog', { name: 'Publish this form?' });
      await sheet.waitFor();
      t.deepEqual(await axeViolations(page), []);
      await sheet.getByRole('button', { name: 'Publish', exact: true }).click();
      const live = page.getByRole('dialog', { name: 'Your form is live' });
      await live.getByText('Version 1 is live.').waitFor();
      const form = (await app.api('GET', `/forms/${id}`, { key: owner.key })).body;
      t.true(form.published);
      const url = `${app.url}/f/${form.slug}`;
      t.is(await live.getByRole('textbox', { name: 'Link to share' }).inputValue(), url);
      t.is(await live.getByRole('link', { name: 'Open the form (new tab)' }).getAttribute('href'), url);
      await live.getByRole('img', { name: `QR code of ${url}` }).waitFor();
      // The clipboard is the browser's: held from the copy to the read (helpers/browser.ts).
      const copied = await withClipboard(async () => {
        await live.getByRole('button', { name: 'Copy link' }).click();
        await live.getByRole('status').filter({ hasText: 'Link copied.' }).waitFor();
        return page.evaluate(() => (globalThis as any).navigator.clipboard.readText());
      });
      t.is(copied, url);
      await state(page).filter({ hasText: /^Published$/ }).waitFor();
      await shot(page, `builder-publish-live-${width}`);
      t.deepEqual(await axeViolations(page), []);
      // "Changes and versions" leads to the Publish tab (the diff of the next version).
      await live.getByRole('link', { name: 'Changes and versions' }).click();
      await page.getByRole('heading', { name: 'What the next version changes' }).waitFor();
      t.is(await page.getByRole('dialog').count(), 0);

      // Once live, the header offers the link again; an edit turns it into "Publish changes".
      await page.getByRole('link', { name: 'Questions', exact: true }).click();
      await page.getByRole('button', { name: 'Share link' }).click();
      await page.getByRole('dialog', { name: 'Published' }).getByRole('button', { name: 'Close' }).click();
      await page.getByRole('textbox', { name: 'Form title' }).fill(`Publish ${width} (second)`);
      await saved(page);
      await state(page).filter({ hasText: 'Published · changes not live' }).waitFor();
      await page.getByRole('button', { name: 'Publish changes', exact: true }).click();
      const again = page.getByRole('dialog', { name: 'Publish your changes?' });
      await again.getByRole('button', { name: 'Publish changes' }).click();
      await page.getByRole('dialog', { name: 'Your form is live' }).getByText('Version 2 is live.').waitFor();
      await state(page).filter({ hasText: /^Published$/ }).waitFor();
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test('restoring the live version: the header and the Publish tab agree (nothing to publish)', async (t) => {
  t.timeout(240_000);
  const owner = await app.user();
  const created = await app.api('POST', '/forms', { key: owner.key, body: { title: 'Restore me', published: true, questions: [{ type: 'short_text', title: 'Name' }] } });
  const id = created.body.id;
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}`);
    await page.getByRole('textbox', { name: 'Form title' }).fill('Restore me (edited)');
    await saved(page);
    await state(page).filter({ hasText: 'Published · changes not live' }).waitFor();
    await page.getByRole('link', { name: 'Versions', exact: true }).click();
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByText('Version 1 is now the draft.').waitFor();
    await state(page).filter({ hasText: /^Published$/ }).waitFor();
    await page.getByRole('link', { name: 'Publish', exact: true }).click();
    await page.getByText('Nothing: the draft is what is live.').waitFor();
    t.is(await page.getByText('You have changes that respondents do not see yet.').count(), 0);
    t.is(await page.getByText('No change since the last version.').count(), 0);
    t.false((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.has_unpublished_changes);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

for (const width of [390, 1440]) {
  test(`${width} px: the form's address is edited in Settings: checked, a taken one refused, the old link answers 404`, async (t) => {
    t.timeout(240_000);
    const owner = await app.user();
    const taken = `taken-${width}-${Date.now().toString(36)}`;
    const other = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Other' } })).body;
    t.is((await app.api('PUT', `/forms/${other.id}/slug`, { key: owner.key, body: { slug: taken } })).status, 200);
    const created = await app.api('POST', '/forms', { key: owner.key, body: { title: `Customer feedback ${width}`, published: true, questions: [{ type: 'short_text', title: 'Name' }] } });
    const id = created.body.id;
    const old = created.body.slug;
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/forms/${id}/settings`);
      const address = page.getByRole('textbox', { name: 'Address' });
      await address.waitFor();
      t.is(await address.inputValue(), old);
      await page.getByText('once saved, links to the old address stop working').waitFor();

      await address.fill('Not An Address');
      await page.getByRole('alert').filter({ hasText: 'Use lower-case letters, digits and single hyphens' }).waitFor();
      t.deepEqual(await axeViolations(page), []);
      await address.fill(taken);
      await page.getByRole('button', { name: 'Save address' }).click();
      await page.getByRole('alert').filter({ hasText: 'Another form already has this address: choose another.' }).waitFor();
      await shot(page, `builder-address-taken-${width}`);

      await page.getByRole('button', { name: 'Use the title' }).click();
      t.is(await address.inputValue(), `customer-feedback-${width}`);
      await page.getByRole('button', { name: 'Save address' }).click();
      await page.getByText(`The form's address is now ${app.url}/f/customer-feedback-${width}`).waitFor();
      t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.slug, `customer-feedback-${width}`);
      t.is((await app.api('GET', `/public/forms/customer-feedback-${width}`)).status, 200);
      t.is((await app.api('GET', `/public/forms/${old}`)).status, 404);
      await shot(page, `builder-address-saved-${width}`);
      t.deepEqual(await axeViolations(page), []);

      // The next edit still saves (the address changed the form's ETag; the builder took the new one).
      await page.getByRole('textbox', { name: 'Form title' }).fill(`Customer feedback ${width}!`);
      await saved(page);
      t.is((await app.api('GET', `/forms/${id}`, { key: owner.key })).body.title, `Customer feedback ${width}!`);
      // The header's link is the new address.
      await page.getByRole('button', { name: 'Publish changes' }).click();
      await page.getByRole('dialog', { name: 'Publish your changes?' }).getByRole('button', { name: 'Publish changes' }).click();
      const link = page.getByRole('dialog', { name: 'Your form is live' }).getByRole('textbox', { name: 'Link to share' });
      t.is(await link.inputValue(), `${app.url}/f/customer-feedback-${width}`);
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test("a team editor names a draft's address but only reads a published form's (the server's publish permission)", async (t) => {
  t.timeout(240_000);
  const owner = await app.user('enterprise');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Address team' } })).body;
  const editor = await app.user();
  const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: editor.email, role: 'editor' } });
  t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: editor.key })).status, 200);
  const live = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Live team form', team_id: team.id, published: true, questions: [{ type: 'short_text', title: 'Name' }] } })).body;
  const draft = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Draft team form', team_id: team.id } })).body;
  t.is((await app.api('PUT', `/forms/${live.id}/slug`, { key: editor.key, body: { slug: 'editor-moved-it' } })).status, 403);
  const { page, errors, close } = await openPage(browser, { width: 1440, cookie: editor.cookie });
  try {
    await page.goto(`${app.url}/forms/${live.id}/settings`);
    await page.getByText('Only the team’s owners and admins change the address of a published form.').waitFor();
    t.is(await page.getByRole('textbox', { name: 'Address' }).count(), 0);
    t.is(await page.getByRole('button', { name: 'Save address' }).count(), 0);
    t.deepEqual(await axeViolations(page), []);

    await page.goto(`${app.url}/forms/${draft.id}/settings`);
    const address = page.getByRole('textbox', { name: 'Address' });
    await address.fill(`team-draft-${Date.now().toString(36)}`);
    const slug = await address.inputValue();
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByText(`The form's address is now ${app.url}/f/${slug}`).waitFor();
    t.is((await app.api('GET', `/forms/${draft.id}`, { key: owner.key })).body.slug, slug);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
