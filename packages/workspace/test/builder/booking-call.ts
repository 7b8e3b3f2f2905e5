import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { Telephony } from '@formloom/core';
import { startWorkspaceApp, type WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared';

/*
 * The booking question's confirmation call in the builder (docs/booking.md, "Confirmation calls"): the contact
 * question whose phone is called and what each call costs, beside the setting, at 390 px and on a desktop, axe 0.
 * No call is placed here: the server only needs to say it can (a telephony adapter with a number).
 * FORMLOOM_SHOTS=<dir> saves screenshots there.
 */

const telephony: Telephony = {
  id: 'twilio',
  from: '+15005550001',
  placeCall: async () => { throw new Error('no calls in this test'); },
  getCall: async () => { throw new Error('no calls in this test'); },
  parseCallback: () => { throw new Error('no calls in this test'); },
  closingAnswer: () => ({ contentType: 'text/xml', body: '<Response/>' }),
};

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([startWorkspaceApp('sqlite', { telephony }), sharedBrowser()]);
});
test.after.always(async () => {
  await app?.close();
});

test('the confirmation call: which phone is called and what a call costs, beside the setting, at 390 px and 1366 px', async (t) => {
  t.timeout(120_000);
  const owner = await app.user('pro');
  await app.formloom.accounts.purchaseCredits(owner.id, 500);
  const hours = [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' }));
  const created = await app.api('POST', '/forms', {
    key: owner.key,
    body: {
      title: 'Fitting',
      questions: [
        { type: 'contact_info', title: 'Your details', properties: { fields: ['first_name', 'phone'] } },
        { type: 'booking', title: 'Pick a time', properties: { hours, timezone: 'Europe/Paris', durations: [30], confirmation_call: true } },
      ],
    },
  });
  const id = created.body.id as string;
  const contactId = created.body.questions[0].id as string;
  for (const width of [390, 1366]) {
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/forms/${id}`);
      await page.getByText('Pick a time', { exact: true }).first().click();
      const quote = page.getByRole('status').filter({ hasText: 'Each call costs about' });
      await quote.waitFor();
      t.regex(await quote.innerText(), /about \d+ voice credits, from your balance \(500 now\)\./);
      const picker = page.getByRole('combobox', { name: 'Call the phone number given in' });
      await picker.selectOption(contactId);
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      const dir = process.env.FORMLOOM_SHOTS;
      if (dir) await page.screenshot({ path: `${dir}/confirmation-call-${width}.png` });
      t.is(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), width, 'no sideways scrolling');
      t.deepEqual(await axeViolations(page), [], `axe at ${width}`);
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
  const saved = (await app.api('GET', `/forms/${id}`, { key: owner.key })).body.questions[1].properties;
  t.is(saved.confirmation_call_question, contactId);
});
