import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * Settings > The form's address: its "Address" label looks like every other field label of the tab (size and
 * weight), though the field beside it is the address prefix and the slug input rather than one control.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

test('the Address label is styled as the other field labels of Settings', async (t) => {
  t.timeout(180_000);
  const owner = await app.user();
  const id = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Labels', questions: [{ type: 'short_text', title: 'Name?' }] } })).body.id;
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width: 1440 });
  try {
    await page.goto(`${app.url}/forms/${id}/settings`);
    const look = async (label: string) =>
      page.getByText(label, { exact: true }).first().evaluate((el) => {
        const s = (globalThis as any).getComputedStyle(el);
        return { weight: s.fontWeight, size: s.fontSize };
      });
    await page.getByRole('textbox', { name: 'Address' }).waitFor();
    t.deepEqual(await look('Address'), await look('Form description'));
    t.deepEqual(await axeViolations(page), []);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
