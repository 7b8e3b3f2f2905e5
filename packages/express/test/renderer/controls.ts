import test from '../helpers/page-test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, launchBrowser } from '../helpers/browser';
import { signaturePng } from '../helpers/png';

const png = (w: number, h: number) => Buffer.from(signaturePng(w, h).split(',')[1]!, 'base64');

/*
 * The respondent's controls at their best (issue 20, "Up to the best of the field"): the dropdown as a
 * searchable ARIA combobox, the upload drop zone with preview and remove, quiz endings with a retake, check
 * marks on picked options, motion only when the respondent allows it, and axe-core on each.
 */
let browser: Browser;
let app: TestApp;
let key: string;
test.before(async () => {
  browser = await launchBrowser();
  app = await startTestApp('sqlite');
  key = (await app.user()).key;
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

async function open(opts: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, ...opts });
  // A busy machine: give navigation and waits room (nothing here is timed).
  context.setDefaultTimeout(90_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !/Failed to load resource/.test(m.text()) && errors.push(m.text()));
  return { page, errors, close: () => context.close() };
}

async function publish(body: Record<string, unknown>) {
  const res = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; slug: string; questions: Array<{ id: string }> };
}

const form = (page: Page) => page.locator('formloom-form');
const heading = (page: Page, name: string) => form(page).getByRole('heading', { name }).waitFor();

test('the dropdown is a searchable combobox: typing filters, arrows and Enter pick, a tap picks', async (t) => {
  t.timeout(240_000);
  const countries = ['Austria', 'Belgium', 'France', 'Germany', 'Spain', 'Sweden'];
  const f = await publish({ title: 'Where', questions: [{ type: 'dropdown', title: 'Country', properties: { choices: countries.map((label) => ({ label })) } }, { type: 'dropdown', title: 'Again', properties: { choices: countries.map((label) => ({ label })) } }] });
  const { page, errors, close } = await open();
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Country');
    const box = form(page).getByRole('combobox', { name: 'Country' });
    t.is(await box.getAttribute('aria-expanded'), 'false');
    await page.keyboard.type('sw');
    t.is(await box.getAttribute('aria-expanded'), 'true');
    t.deepEqual(await form(page).getByRole('option').allInnerTexts(), ['Sweden']);
    await page.keyboard.press('Backspace');
    t.deepEqual(await form(page).getByRole('option').allInnerTexts(), ['Austria', 'Spain', 'Sweden'], 'any part of a label matches');
    await page.keyboard.press('ArrowDown');
    t.is(await box.getAttribute('aria-activedescendant'), await form(page).getByRole('option', { name: 'Spain' }).getAttribute('id'));
    t.deepEqual(await axeViolations(page), []);
    await page.keyboard.press('Enter');
    await heading(page, 'Again');
    await form(page).getByRole('combobox', { name: 'Again' }).click();
    await form(page).getByRole('option', { name: 'Germany' }).click();
    await form(page).getByRole('heading', { name: 'Thank you!' }).waitFor();
    const list = await app.api('GET', `/forms/${f.id}/responses`, { key });
    t.deepEqual(list.body.responses[0].answers.map((a: any) => a.value), ['Spain', 'Germany']);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('the upload drop zone says what it takes in words, previews an image, and a file can be removed', async (t) => {
  t.timeout(240_000);
  const f = await publish({ title: 'Photo', questions: [{ type: 'file_upload', title: 'Your photo', required: true, properties: { max_size_mb: 5, allowed_types: ['image/png', 'image/jpeg'] } }] });
  const { page, errors, close } = await open();
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Your photo');
    t.is(await form(page).locator('.fl-drop .fl-hint').innerText(), 'PNG or JPEG up to 5 MB');
    t.true(await form(page).getByText('Choose a file').isVisible());
    await form(page).locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(4, 4) });
    await form(page).getByRole('button', { name: 'Remove' }).waitFor();
    t.is(await form(page).locator('.fl-file-name').innerText(), 'me.png');
    await form(page).locator('.fl-file-card img').waitFor();
    t.true(await form(page).locator('.fl-file-card img').evaluate((img: any) => img.complete && img.naturalWidth === 4), 'the preview shows the picture');
    t.deepEqual(await axeViolations(page), []);
    await form(page).getByRole('button', { name: 'Remove' }).click();
    t.true(await form(page).getByText('Choose a file').isVisible());
    await form(page).getByRole('button', { name: 'Submit' }).click();
    t.is(await form(page).locator('.fl-error').innerText(), 'This question is required', 'removed means no answer');
    await form(page).locator('input[type=file]').setInputFiles({ name: 'doc.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
    await form(page).getByRole('button', { name: 'Submit' }).click();
    t.is(await form(page).locator('.fl-error').innerText(), 'This type of file is not accepted: PNG or JPEG up to 5 MB');
    await form(page).locator('input[type=file]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png(4, 4) });
    await form(page).getByRole('status').filter({ hasText: 'me.png: uploaded' }).waitFor({ state: 'attached' });
    await form(page).getByRole('button', { name: 'Submit' }).click();
    await heading(page, 'Thank you!');
    const list = await app.api('GET', `/forms/${f.id}/responses`, { key });
    t.is(list.body.responses[0].answers[0].value.name, 'me.png');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a quiz ends on its matched ending (title, description, score) and can be retaken when allowed', async (t) => {
  t.timeout(240_000);
  const f = await publish({
    title: 'Quiz',
    mode: 'knowledge_quiz',
    quiz_settings: {
      allow_retake: true,
      endings: [
        { id: 'low', title: 'Keep practising', description: 'Read the guide and try again.', max_score: 0 },
        { id: 'high', title: 'Expert', description: 'You know your capitals.', min_score: 1 },
      ],
    },
    questions: [{ type: 'multiple_choice', title: 'Capital of France?', properties: { choices: [{ label: 'Paris' }, { label: 'Lyon' }], correct_answer: 'Paris' } }],
  });
  const { page, errors, close } = await open();
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Capital of France?');
    await page.keyboard.press('b');
    await heading(page, 'Keep practising');
    t.true(await form(page).getByText('Read the guide and try again.').isVisible());
    t.regex(await form(page).locator('.fl-score').innerText(), /^0 \/ 1/);
    t.deepEqual(await axeViolations(page), []);
    await form(page).getByRole('button', { name: 'Retake the quiz' }).click();
    await heading(page, 'Capital of France?');
    await page.keyboard.press('a');
    await heading(page, 'Expert');
    t.true(await form(page).getByText('You know your capitals.').isVisible());
    t.is((await app.api('GET', `/forms/${f.id}/responses`, { key })).body.total, 2, 'each attempt is its own response');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('picked options carry a check mark; with reduced motion nothing animates', async (t) => {
  t.timeout(240_000);
  const f = await publish({ title: 'Marks', questions: [{ type: 'multiple_choice', title: 'Fruits', properties: { allow_multiple: true, choices: [{ label: 'Apple' }, { label: 'Pear' }] } }] });
  const still = await open({ reducedMotion: 'reduce' });
  const moving = await open();
  try {
    for (const { page } of [still, moving]) {
      await page.goto(`${app.url}/f/${f.slug}`);
      await heading(page, 'Fruits');
    }
    const animation = (page: Page) => form(page).locator('.fl-q').evaluate((el: any) => (globalThis as any).getComputedStyle(el).animationName as string);
    t.is(await animation(still.page), 'none');
    t.not(await animation(moving.page), 'none', 'questions slide in otherwise');
    await still.page.keyboard.press('a');
    const mark = (name: string) => form(still.page).locator('.fl-choice', { hasText: name }).locator('.fl-check');
    t.true(await mark('Apple').isVisible());
    t.false(await mark('Pear').isVisible());
  } finally {
    await still.close();
    await moving.close();
  }
});
