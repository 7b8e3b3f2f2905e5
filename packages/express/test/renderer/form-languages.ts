import test from '../helpers/page-test';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, eventually, launchBrowser } from '../helpers/browser';

/*
 * A form in several languages on the respondent's page (docs/languages.md): ?lang= first, then the browser's
 * languages, then the picker; Arabic right to left; the answer stored in the default language with the
 * response's language; the quiz ending in the respondent's language. One app, one browser.
 */
let browser: Browser;
let app: TestApp;
let key: string;
let form: { id: string; slug: string };
test.before(async () => {
  browser = await launchBrowser();
  app = await startTestApp('sqlite');
  key = (await app.user()).key;
  const created = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'Survey',
      published: true,
      language: 'en',
      languages: ['de', 'ar'],
      mode: 'knowledge_quiz',
      quiz_settings: { endings: [{ id: 'right', title: 'Well done', description: 'Red it is.', min_score: 1 }, { id: 'wrong', title: 'Not quite', max_score: 0 }] },
      questions: [{ id: 'q_color', type: 'multiple_choice', title: 'Favourite colour', required: true, properties: { choices: [{ id: 'red', label: 'Red' }, { id: 'blue', label: 'Blue' }], correct_answer: 'Red' } }],
      translations: {
        de: { title: 'Umfrage', 'questions.q_color.title': 'Lieblingsfarbe', 'questions.q_color.choices.red': 'Rot', 'questions.q_color.choices.blue': 'Blau', 'endings.right.title': 'Gut gemacht', 'endings.right.description': 'Rot ist richtig.' },
        ar: { title: 'استطلاع', 'questions.q_color.title': 'اللون المفضل', 'questions.q_color.choices.red': 'أحمر', 'questions.q_color.choices.blue': 'أزرق' },
      },
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  form = created.body;
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

async function open(opts: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, ...opts });
  context.setDefaultTimeout(90_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, errors, el: page.locator('formloom-form'), close: () => context.close() };
}

/** Picks a choice by its label (the radio's accessible name is the translated text). */
async function tapLabel(el: import('playwright-core').Locator, name: string) {
  const id = await el.getByRole('radio', { name, exact: true }).getAttribute('id');
  await el.locator(`label[for="${id}"]`).click();
}

/**
 * Presses the submit button after a tap on the form's last question. That tap submits by itself 250 ms later
 * (docs/respondents.md: every single-tap question moves on by the same rule), which on a slow machine can come
 * before the click: then the button is gone and the submission is the tap's. Either way one response is stored.
 */
async function submitAfterTap(el: import('playwright-core').Locator, name: string) {
  await el.getByRole('button', { name, exact: true }).click({ timeout: 5_000 }).catch(() => undefined);
}

async function responses(language: string) {
  return (await app.api('GET', `/forms/${form.id}/responses?language=${language}`, { key })).body.responses as Array<{ language: string; answers: Array<{ value: unknown }> }>;
}

test('German from ?lang=, the answer stored in the default language with the response language', async (t) => {
  const { page, errors, el, close } = await open({ locale: 'en-US' });
  try {
    await page.goto(`${app.url}/f/${form.slug}?lang=de`);
    await el.getByRole('heading', { name: /Lieblingsfarbe/ }).waitFor();
    t.is(await el.getByRole('combobox', { name: 'Sprache' }).inputValue(), 'de');
    // The page's first bytes (title, the text shown without JavaScript) are in German too.
    t.is(await page.title(), 'Umfrage');
    t.is(await page.locator('html').getAttribute('lang'), 'de');
    await tapLabel(el, 'Rot');
    await submitAfterTap(el, 'Absenden');
    // The quiz ending the answers matched, in German.
    await el.getByRole('heading', { name: 'Gut gemacht' }).waitFor();
    t.true(await el.getByText('Rot ist richtig.').isVisible());
    t.true(await eventually(async () => (await responses('de')).length === 1));
    const [r] = await responses('de');
    t.is(r!.answers[0]!.value, 'Red');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('Arabic through the picker, right to left, axe clean', async (t) => {
  const { page, errors, el, close } = await open({ locale: 'en-US' });
  try {
    await page.goto(`${app.url}/f/${form.slug}`);
    await el.getByRole('heading', { name: /Favourite colour/ }).waitFor();
    const picker = el.getByRole('combobox', { name: 'Language' });
    await picker.focus();
    await picker.selectOption('ar');
    await el.getByRole('heading', { name: /اللون المفضل/ }).waitFor();
    t.is(await el.locator('.fl-root').getAttribute('dir'), 'rtl');
    t.is(await el.locator('.fl-root').evaluate((n: any) => (globalThis as any).getComputedStyle(n).direction as string), 'rtl');
    t.is(await el.getByRole('combobox', { name: 'اللغة' }).inputValue(), 'ar');
    t.deepEqual(await axeViolations(page), []);
    await tapLabel(el, 'أزرق');
    await submitAfterTap(el, 'إرسال');
    t.true(await eventually(async () => (await responses('ar')).length === 1));
    t.is((await responses('ar'))[0]!.answers[0]!.value, 'Blue');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
