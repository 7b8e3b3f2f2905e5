import type { Calendars } from '@formloom/core';
import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { QUESTION_TYPES } from '@formloom/core';
import { createStripeProcessor } from '@formloom/payments-stripe';
import { startWorkspaceApp, type WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared';

/*
 * An owner builds, themes, publishes and shares a form in the browser by the UI alone (docs/workspace.md);
 * a respondent answers it in a fresh browser; the owner restores an older version. axe checks each screen.
 */

/** Every question type, by the name the builder's "New question" list gives it. */
const KIND_LABELS: Record<string, string> = {
  yes_no: 'Yes / No',
  short_text: 'Short text',
  long_text: 'Long text',
  email: 'Email',
  number: 'Number',
  date: 'Date',
  multiple_choice: 'Multiple choice',
  dropdown: 'Dropdown',
  rating: 'Rating',
  opinion_scale: 'Opinion scale',
  file_upload: 'File upload',
  contact_info: 'Contact info',
  address: 'Address',
  question_group: 'Question group',
  multi_question_page: 'Several questions on a page',
  contract: 'Contract (e-signature)',
  payment: 'Payment',
  data: 'Data source',
  email_step: 'Send an email',
  fuse: 'Fuse with another form',
  composite: 'Composite of forms',
  booking: 'Booking',
};

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  // Payments configured (never called here), so the payment question can be published (docs/payments.md).
  const processor = createStripeProcessor({ secretKey: 'sk_test_unused', webhookSecret: 'whsec_unused', publishableKey: 'pk_test_unused' });
  // A calendar at the boundary (docs/booking.md): the owner's CalDAV server, which answers and holds nothing.
  const calendars: Calendars = {
    id: 'test',
    connect: () => ({ test: async () => ({ url: 'https://cal.example.com/dav/work/', name: 'Work' }), busyTimes: async () => [], putEvent: async () => undefined, deleteEvent: async () => undefined }),
  };
  app = await startWorkspaceApp('sqlite', { payments: { purchaseCredits: async () => 0, processor }, calendars });
  browser = await sharedBrowser();
});
test.after.always(async () => {
  await app?.close();
});

async function noViolations(t: import('ava').ExecutionContext, page: Page, screen: string) {
  t.deepEqual(await axeViolations(page), [], `axe on ${screen}`);
}

/** A select's name starts with its label (the chosen option's text follows it). */
const select = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();

async function publish(page: Page) {
  await page.getByRole('link', { name: 'Publish', exact: true }).click();
  await page.getByRole('button', { name: /^Publish/ }).click();
}

test('the builder covers every question type the API accepts', (t) => {
  t.deepEqual(Object.keys(KIND_LABELS).sort(), [...QUESTION_TYPES].sort());
});

test('an owner builds every question type, a logic jump and a theme by the UI, publishes, shares; a respondent answers; a version is restored', async (t) => {
  t.timeout(300_000);
  const owner = await app.user('business');
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(app.url);
    await page.getByRole('heading', { name: 'No forms yet' }).waitFor();
    await noViolations(t, page, 'the empty forms list');

    // A second form first, published, for the Fuse and composite questions to point at.
    await page.getByRole('button', { name: 'New form' }).click();
    await noViolations(t, page, 'the template picker');
    await page.getByRole('button', { name: /Contact form/ }).click();
    // A template opens its preview first (docs/workspace.md "Templates").
    await page.getByRole('dialog', { name: 'Contact form' }).getByRole('button', { name: 'Use this template' }).click();
    await page.getByRole('textbox', { name: 'Form title' }).waitFor();
    t.is(await page.getByRole('textbox', { name: 'Form title' }).inputValue(), 'Contact us');
    await publish(page);
    await page.getByText('Version 1 is live.').waitFor();
    await page.getByRole('link', { name: 'Forms', exact: true }).click();
    await page.getByRole('link', { name: 'Contact us' }).waitFor();

    await page.getByRole('button', { name: 'New form' }).click();
    await page.getByRole('button', { name: /Blank form/ }).click();
    const title = page.getByRole('textbox', { name: 'Form title' });
    await title.fill('Everything form');
    await page.getByRole('heading', { name: 'Add your first question' }).waitFor();
    await noViolations(t, page, 'the empty builder');

    let n = 0;
    for (const [type, label] of Object.entries(KIND_LABELS)) {
      await page.getByRole('combobox', { name: select('New question') }).selectOption({ label });
      await page.getByRole('button', { name: 'Add question' }).click();
      n += 1;
      const q = page.getByLabel(`Question ${n}`, { exact: true });
      await t.notThrowsAsync(q.waitFor(), type);
      await q.fill(type === 'yes_no' ? 'Skip to the end?' : `${label} question`);
      if (type === 'multiple_choice') {
        await page.getByRole('button', { name: 'Add a choice' }).click();
        await page.getByLabel('Choice 3', { exact: true }).fill('Gamma');
        await page.getByLabel('Allow several answers', { exact: true }).check();
      }
      if (type === 'question_group') await page.getByRole('button', { name: 'Add a field' }).click();
      if (type === 'contract') await page.getByLabel('Contract text', { exact: true }).fill('I agree to the terms.');
      if (type === 'payment') {
        await page.getByLabel('Amount', { exact: true }).fill('12');
        await page.getByLabel('Currency', { exact: true }).fill('eur');
      }
      if (type === 'data') await page.getByLabel('Source URL', { exact: true }).fill('https://example.com/data.json');
      if (type === 'email_step') {
        await page.getByLabel('Recipient', { exact: true }).fill('team@example.com');
        await page.getByLabel('Sender name', { exact: true }).fill('Forms');
        await page.getByLabel('Subject', { exact: true }).fill('A new answer');
        await page.getByLabel('Message', { exact: true }).fill('Someone answered.');
      }
      if (type === 'fuse') {
        // The Fuse editor (docs/logic.md "Fuse"): the form to continue in, then its version (the live one kept).
        await page.getByRole('combobox', { name: select('Continue in form') }).selectOption({ label: 'Contact us' });
        await page.getByRole('combobox', { name: select('Version respondents continue in') }).waitFor();
        t.is(await page.getByRole('combobox', { name: select('Version respondents continue in') }).inputValue(), '');
      }
      if (type === 'composite') await page.getByLabel('Contact us', { exact: true }).check();
    }
    await saved(page);
    await noViolations(t, page, 'the builder with every kind');

    // A logic jump, chosen from lists: "Skip to the end?" answered Yes ends the form.
    await page.getByRole('button', { name: /Skip to the end\?/ }).click();
    await page.getByText('Logic jumps', { exact: true }).click();
    await page.getByRole('button', { name: 'Add a jump' }).click();
    await page.getByRole('combobox', { name: select('Test') }).selectOption({ label: 'is' });
    await page.getByRole('combobox', { name: 'Condition 1 of jump 1: answer' }).selectOption({ label: 'Yes' });
    await page.getByRole('combobox', { name: 'Jump 1: then' }).selectOption({ label: 'Show the thank-you screen (submit)' });
    await saved(page);
    await noViolations(t, page, 'the logic editor');

    // The booking question is not ready: publishing is refused and the problem shows beside it.
    await publish(page);
    await page.getByRole('alert').filter({ hasText: 'A booking question has no connected calendar' }).first().waitFor();
    // Its link opens the question, and the list marks it too.
    await page.getByRole('link', { name: 'Question 22: Booking question' }).click();
    await page.getByRole('button', { name: /Booking question needs attention/ }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'A booking question has no connected calendar' }).waitFor();
    t.is(await page.getByLabel('Question 22', { exact: true }).inputValue(), 'Booking question');
    await page.getByLabel('CalDAV address', { exact: true }).fill('https://cal.example.com/dav');
    await page.getByLabel('User name', { exact: true }).fill('owner');
    await page.getByLabel('Password', { exact: true }).fill('app-password');
    await page.getByRole('button', { name: 'Connect and test' }).click();
    await page.getByText('Connected to').waitFor();
    await page.getByLabel('Monday', { exact: true }).check();
    await page.getByLabel('Time zone', { exact: true }).fill('Europe/Paris');
    await page.getByLabel('Durations (minutes)', { exact: true }).fill('30');
    await page.getByLabel('Durations (minutes)', { exact: true }).press('Tab');
    await saved(page);

    // The theme, with the respondent's element as the live preview.
    await page.getByRole('link', { name: 'Theme', exact: true }).click();
    await page.getByRole('textbox', { name: 'Accent', exact: true }).fill('#0f766e');
    await page.getByRole('textbox', { name: 'Background', exact: true }).fill('#fefce8');
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('#1c1917');
    await page.getByText('Fonts of each part', { exact: true }).click();
    await page.getByRole('combobox', { name: select('Font: Questions and titles') }).selectOption({ label: 'Georgia' });
    const previewBg = () => page.locator('fl-theme-panel formloom-form').evaluate((el) => (el as any).style.getPropertyValue('--fl-bg'));
    await page.waitForFunction(() => true);
    t.is(await previewBg(), '#fefce8', 'the preview follows the theme as it is typed');
    await saved(page);
    await noViolations(t, page, 'the theme editor');

    await publish(page);
    await page.getByText('Version 1 is live.').waitFor();
    await noViolations(t, page, 'the publish tab');

    await page.getByRole('link', { name: 'Share', exact: true }).click();
    const link = await page.getByLabel('Share this address', { exact: true }).inputValue();
    t.regex(link, /\/f\/[A-Za-z0-9_-]+$/);
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    t.true((await page.locator('pre').first().textContent())!.includes('<formloom-form slug='));
    await noViolations(t, page, 'the share tab');

    // A respondent, in a fresh browser, answers Yes and the jump ends the form.
    const respondent = await openPage(browser, { width: 390 });
    try {
      await respondent.page.goto(link);
      await respondent.page.getByRole('heading', { name: /Skip to the end\?/ }).waitFor();
      await respondent.page.getByText('Yes', { exact: true }).click();
      await respondent.page.getByRole('heading', { name: 'Thank you!' }).waitFor();
      t.deepEqual(respondent.errors, []);
    } finally {
      await respondent.close();
    }
    const forms = await app.api('GET', '/forms?search=Everything', { key: owner.key });
    const formId = forms.body.forms[0].id;
    const responses = await app.api('GET', `/forms/${formId}/responses`, { key: owner.key });
    t.is(responses.body.total, 1);
    t.deepEqual(responses.body.responses[0].answers.map((a: any) => a.value), [true]);
    const published = await app.api('GET', `/forms/${formId}`, { key: owner.key });
    t.is(published.body.questions.length, Object.keys(KIND_LABELS).length);
    t.is(published.body.theme_color, '#0f766e');
    t.deepEqual(published.body.questions[0].logic_jumps, [{ conditions: [{ op: 'equals', value: true }], to: 'end' }]);
    // The Fuse and composite questions point at the other form, as chosen in their editors.
    const contact = (await app.api('GET', '/forms?search=Contact', { key: owner.key })).body.forms[0].id;
    const byType = (type: string) => published.body.questions.find((q: any) => q.type === type);
    t.is(byType('fuse').properties.fuse_form_id, contact);
    t.falsy(byType('fuse').properties.session_id, 'the live version, none pinned');
    t.deepEqual(byType('composite').properties.composite_ids, [contact]);

    // Version 2 with another title; then version 1 is restored as the draft.
    await page.getByRole('link', { name: 'Questions', exact: true }).click();
    await title.fill('Everything form, second edition');
    await saved(page);
    await publish(page);
    await page.getByText('Version 2 is live.').waitFor();
    await page.getByRole('link', { name: 'Versions', exact: true }).click();
    await page.getByRole('button', { name: 'View and compare version 1' }).click();
    await page.getByRole('region', { name: 'The draft compared with it' }).getByText('Title changed from "Everything form" to "Everything form, second edition"').waitFor();
    await noViolations(t, page, 'the versions tab');
    await page.getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Restore version 1' }).click();
    await page.getByText('Version 1 is now the draft.').waitFor();
    t.is(await title.inputValue(), 'Everything form');
    const draft = await app.api('GET', `/forms/${formId}`, { key: owner.key });
    t.is(draft.body.title, 'Everything form');
    t.true(draft.body.has_unpublished_changes);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
