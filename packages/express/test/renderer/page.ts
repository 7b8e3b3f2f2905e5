import test from '../helpers/page-test';
import type { Browser, Page } from 'playwright-core';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, eventually, launchBrowser, openPage, webhookReceiver } from '../helpers/browser';

/*
 * The respondent's page in a real browser (docs/respondents.md): every question type answered through the
 * page at phone width, errors a respondent can act on, a logic jump, an upload, the theme, axe-core's
 * audit of every screen, and the stored response and its webhook checked through the API.
 */
let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

const THEME = {
  theme_color: '#0e7490',
  background_color: '#fefce8',
  text_color: '#1c1917',
  button_color: '#0e7490',
  button_text_color: '#ffffff',
  title_color: '#7c2d12',
  font_family: 'Georgia, serif',
  question_font_size: '22px',
  top_logo_alignment: 'center',
  custom_css: '.fl-question { letter-spacing: 1px; }',
  branding_footer_text: 'Acme surveys',
  welcome_title: 'Welcome to the survey',
  welcome_button_text: 'Begin',
  thank_you_title: 'Thanks a lot!',
};

const QUESTIONS = [
  { type: 'short_text', title: 'Your name', required: true, validations: { min_length: 2 } },
  { type: 'email', title: 'Your email', required: true },
  { type: 'number', title: 'Your age', properties: { min: 18, max: 120 } },
  { type: 'yes_no', title: 'Do you have a pet?' },
  { type: 'short_text', title: "Your pet's name", required: true },
  { type: 'long_text', title: 'About you' },
  { type: 'date', title: 'Your birthday' },
  { type: 'multiple_choice', title: 'Favourite colour', properties: { choices: [{ label: 'Red' }, { label: 'Green' }, { label: 'Blue' }] } },
  { type: 'multiple_choice', title: 'Fruits you like', properties: { allow_multiple: true, allow_other: true, choices: [{ label: 'Apple' }, { label: 'Pear' }, { label: 'Plum' }] } },
  { type: 'dropdown', title: 'Country', properties: { choices: [{ label: 'France' }, { label: 'Germany' }, { label: 'Spain' }] } },
  { type: 'rating', title: 'Rate us', properties: { steps: 5, shape: 'star' } },
  { type: 'opinion_scale', title: 'Would you recommend us?', properties: { min: 0, max: 10, min_label: 'Never', max_label: 'Surely' } },
  { type: 'file_upload', title: 'Your CV', properties: { max_size_mb: 1, allowed_types: ['text/plain', 'application/pdf'] } },
  { type: 'contact_info', title: 'Contact details', properties: { fields: ['first_name', 'last_name', 'phone'] } },
  { type: 'address', title: 'Address', properties: { fields: ['address_line1', 'city', 'country'] } },
  { type: 'question_group', title: 'A few more', properties: { questions: [{ type: 'short_text', title: 'Nickname' }, { type: 'number', title: 'Shoe size' }] } },
  { type: 'composite', title: 'Continue elsewhere' },
];

/** A published form with every type, the theme, and a jump: answering "No" to the pet question skips the pet's name. */
async function everythingForm(app: TestApp, key: string, webhook: string) {
  const created = await app.api('POST', '/forms', { key, body: { title: 'Everything', ...THEME, questions: QUESTIONS } });
  const qs = created.body.questions as Array<{ id: string }>;
  const withJump = created.body.questions.map((q: any, i: number) =>
    i === 3 ? { ...q, logic_jumps: [{ conditions: [{ op: 'equals', value: false }], to: qs[5]!.id }] } : q,
  );
  const put = await app.api('PUT', `/forms/${created.body.id}`, { key, body: { questions: withJump, webhook_url: webhook, published: true } });
  if (put.status !== 200) throw new Error(JSON.stringify(put.body));
  return put.body as { id: string; slug: string; questions: Array<{ id: string }> };
}

/** Adds the rules axe finds broken on this screen to `found`, each rule once. */
async function audit(page: Page, found: string[]) {
  for (const v of await axeViolations(page)) if (!found.some((f) => f.startsWith(v.slice(0, v.indexOf(':') + 1)))) found.push(v);
}

const form = (page: Page) => page.locator('formloom-form');
const question = (page: Page) => form(page).locator('.fl-question');
const error = (page: Page) => form(page).locator('.fl-error');
/** Clicks the label of the radio button named `name`, as a respondent does (the input itself is visually hidden). */
async function pick(page: Page, name: string) {
  const id = await form(page).getByRole('radio', { name, exact: true }).getAttribute('id');
  await form(page).locator(`label[for="${id}"]`).click();
}
const ok = (page: Page) => form(page).getByRole('button', { name: /^(OK|Submit)$/ });

for (const kind of DB_KINDS) {
  test(`[${kind}] every question type answered through the page at 360 px, with errors, a jump, an upload, theme and axe`, async (t) => {
    // A browser on a shared machine: the walk through 17 screens and 13 audits can outlast ava's default.
    t.timeout(240_000);
    const app = await startTestApp(kind, { allowPrivateWebhooks: true });
    const hook = await webhookReceiver();
    const { page, errors, close } = await openPage(browser, { width: 360 });
    const violations: string[] = [];
    try {
      app.formloom.worker.start({ pollMs: 100 });
      const u = await app.user('pro');
      const f = await everythingForm(app, u.key, hook.url);
      await page.goto(`${app.url}/f/${f.slug}`);
      await form(page).getByRole('heading', { name: 'Welcome to the survey' }).waitFor();
      await audit(page, violations);

      // The theme, read back from computed styles inside the shadow root.
      const styles = await form(page).locator('.fl-root').evaluate((el: any) => {
        const getComputedStyle = (globalThis as any).getComputedStyle;
        const s = getComputedStyle(el);
        const b = getComputedStyle(el.querySelector('.fl-button')!);
        const h1 = getComputedStyle(el.querySelector('.fl-title')!);
        return { bg: s.backgroundColor, color: s.color, font: s.fontFamily, button: b.backgroundColor, buttonText: b.color, title: h1.color };
      });
      t.deepEqual(styles, { bg: 'rgb(254, 252, 232)', color: 'rgb(28, 25, 23)', font: 'Georgia, serif', button: 'rgb(14, 116, 144)', buttonText: 'rgb(255, 255, 255)', title: 'rgb(124, 45, 18)' });
      t.regex(await form(page).locator('.fl-branding').innerText(), /Acme surveys[\s\S]*Powered by Formloom/);
      await form(page).getByRole('button', { name: 'Begin' }).click();

      // 0: required, then text.
      await question(page).filter({ hasText: 'Your name' }).waitFor();
      t.is(await question(page).evaluate((el: any) => (globalThis as any).getComputedStyle(el).letterSpacing as string), '1px', 'custom_css applies inside the shadow root');
      t.is(await question(page).evaluate((el: any) => (globalThis as any).getComputedStyle(el).fontSize as string), '22px');
      await page.keyboard.press('Enter');
      t.is(await error(page).innerText(), 'This question is required');
      await audit(page, violations);
      await page.keyboard.type('A');
      await page.keyboard.press('Enter');
      t.is(await error(page).innerText(), 'This answer must be at least 2 characters', "the question's validations");
      await page.keyboard.type('da');
      await page.keyboard.press('Enter');
      // 1: email.
      await question(page).filter({ hasText: 'Your email' }).waitFor();
      t.is(await form(page).getByText('1 / 17').count(), 0);
      t.is(await form(page).getByText('2 / 17').count(), 1, 'the counter');
      await page.keyboard.type('not-an-email');
      await page.keyboard.press('Enter');
      t.regex(await error(page).innerText(), /valid email address/);
      await form(page).getByRole('textbox').fill('ada@example.com');
      await page.keyboard.press('Enter');
      // 2: number out of range.
      await question(page).filter({ hasText: 'Your age' }).waitFor();
      await page.keyboard.type('7');
      await page.keyboard.press('Enter');
      t.is(await error(page).innerText(), 'Enter a number from 18 to 120');
      await form(page).getByRole('spinbutton').fill('36');
      await page.keyboard.press('Enter');
      // 3: yes/no by its letter; "No" jumps over the pet's name (required, but skipped: the server agrees).
      await question(page).filter({ hasText: 'Do you have a pet?' }).waitFor();
      await audit(page, violations);
      await page.keyboard.press('n');
      // 5: long text, Shift+Enter is a new line.
      await question(page).filter({ hasText: 'About you' }).waitFor();
      await page.keyboard.type('Line one');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('Line two');
      await audit(page, violations);
      await page.keyboard.press('Enter');
      // 6: date.
      await question(page).filter({ hasText: 'Your birthday' }).waitFor();
      await form(page).locator('input[type=date]').fill('1990-05-01');
      await page.keyboard.press('Enter');
      // 7: single choice by letter B.
      await question(page).filter({ hasText: 'Favourite colour' }).waitFor();
      await audit(page, violations);
      await page.keyboard.press('b');
      // 8: multiple choice by letters A and C, and an "other" answer.
      await question(page).filter({ hasText: 'Fruits you like' }).waitFor();
      await page.keyboard.press('a');
      await page.keyboard.press('c');
      await audit(page, violations);
      await form(page).getByRole('textbox', { name: 'Other' }).fill('Mango');
      await page.keyboard.press('Enter');
      // 9: searchable dropdown.
      await question(page).filter({ hasText: 'Country' }).waitFor();
      await page.keyboard.type('germany');
      await audit(page, violations);
      await page.keyboard.press('Enter');
      // 10: rating: a tap moves on by itself.
      await question(page).filter({ hasText: 'Rate us' }).waitFor();
      await audit(page, violations);
      await pick(page, '4 of 5');
      // 11: opinion scale, the same.
      await question(page).filter({ hasText: 'Would you recommend us?' }).waitFor();
      await audit(page, violations);
      await pick(page, '9');
      // 12: file upload: too large first, then a file that fits.
      await question(page).filter({ hasText: 'Your CV' }).waitFor();
      t.is(await form(page).locator('.fl-hint').innerText(), 'Text or PDF up to 1 MB', 'the allowed types in words');
      const file = form(page).locator('input[type=file]');
      await file.setInputFiles({ name: 'big.txt', mimeType: 'text/plain', buffer: Buffer.alloc(2 * 1024 * 1024, 97) });
      await ok(page).click();
      t.regex(await error(page).innerText(), /too large: files may be at most 1 MB/);
      await file.setInputFiles({ name: 'cv.txt', mimeType: 'text/plain', buffer: Buffer.from('my cv') });
      await form(page).getByRole('status').filter({ hasText: 'cv.txt: uploaded' }).waitFor({ state: 'attached' });
      t.is(await form(page).locator('.fl-file-name').innerText(), 'cv.txt');
      await audit(page, violations);
      await ok(page).click();
      // 13: contact info sub-fields.
      await question(page).filter({ hasText: 'Contact details' }).waitFor();
      await form(page).getByLabel('First name').fill('Ada');
      await form(page).getByLabel('Last name').fill('Lovelace');
      await form(page).getByLabel('Phone').fill('+44 20 7946 0000');
      await audit(page, violations);
      await ok(page).click();
      // 14: address.
      await question(page).filter({ hasText: 'Address' }).waitFor();
      await form(page).getByRole('textbox', { name: 'Address', exact: true }).fill('12 St James Square');
      await form(page).getByLabel('City').fill('London');
      await form(page).getByLabel('Country').fill('UK');
      await ok(page).click();
      // 15: a group of sub-questions.
      await question(page).filter({ hasText: 'A few more' }).waitFor();
      await form(page).getByLabel('Nickname').fill('Countess');
      await form(page).getByLabel('Shoe size').fill('38');
      await ok(page).click();
      // 16: a kind the page cannot offer: a notice, then submit.
      await question(page).filter({ hasText: 'Continue elsewhere' }).waitFor();
      t.regex(await form(page).getByRole('note').innerText(), /cannot be completed on this page/);
      await audit(page, violations);
      t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 360), 'no horizontal scrolling at 360 px');
      await form(page).getByRole('button', { name: 'Submit' }).click();
      await form(page).getByRole('heading', { name: 'Thanks a lot!' }).waitFor();
      await audit(page, violations);

      const list = await app.api('GET', `/forms/${f.id}/responses`, { key: u.key });
      t.is(list.body.total, 1);
      const r = list.body.responses[0];
      t.truthy(r.completed_at);
      const byTitle = Object.fromEntries(r.answers.map((a: any) => [QUESTIONS[f.questions.findIndex((q) => q.id === a.question_id)]!.title, a.value]));
      const cv = byTitle['Your CV'];
      t.regex(cv.url, new RegExp(`^${app.url}/api/v1/public/uploads/${f.id}/[0-9a-f]{32}/cv.txt$`));
      t.deepEqual(byTitle, {
        'Your name': 'Ada',
        'Your email': 'ada@example.com',
        'Your age': 36,
        'Do you have a pet?': false,
        'About you': 'Line one\nLine two',
        'Your birthday': '1990-05-01',
        'Favourite colour': 'Green',
        'Fruits you like': ['Apple', 'Plum', 'Mango'],
        Country: 'Germany',
        'Rate us': 4,
        'Would you recommend us?': 9,
        'Your CV': { url: cv.url, name: 'cv.txt' },
        'Contact details': { first_name: 'Ada', last_name: 'Lovelace', phone: '+44 20 7946 0000' },
        Address: { address_line1: '12 St James Square', city: 'London', country: 'UK' },
        'A few more': { [(QUESTIONS[15] as any).properties.questions[0] && Object.keys(byTitle['A few more'])[0]!]: 'Countess', [Object.keys(byTitle['A few more'])[1]!]: 38 },
      });
      t.true(await eventually(() => hook.bodies.length === 1), 'the webhook was delivered');
      t.is(hook.bodies[0].response.id, r.id);
      t.deepEqual(violations, [], 'axe-core finds no violations on any screen');
      t.deepEqual(errors, []);
    } finally {
      await close();
      await hook.close();
      await app.close();
    }
  });
}
