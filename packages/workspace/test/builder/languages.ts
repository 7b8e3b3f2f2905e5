import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * The builder's Languages section (docs/languages.md "In the workspace"): a language added by keyboard, the
 * side-by-side view with missing texts marked, a translation typed and saved, at 390 px and 1366 px, axe 0.
 * The results' language filter. FORMLOOM_SHOTS=<dir> saves screenshots there.
 */
let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

test('languages added by keyboard, translations side by side, saved, at 390 px and 1366 px', async (t) => {
  t.timeout(120_000);
  const owner = await app.user('pro');
  const created = await app.api('POST', '/forms', {
    key: owner.key,
    body: { title: 'Survey', language: 'en', mode: 'knowledge_quiz', quiz_settings: { endings: [{ id: 'top', title: 'Well done' }] }, questions: [{ type: 'multiple_choice', title: 'Favourite colour', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }] } }] },
  });
  const id = created.body.id as string;
  const qid = created.body.questions[0].id as string;
  for (const [width, lang, name, text] of [[390, 'de', 'German', 'Umfrage'], [1366, 'ar', 'Arabic', 'استطلاع']] as const) {
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(`${app.url}/forms/${id}/settings`);
      const add = page.getByRole('combobox', { name: 'Add a language' });
      await add.focus();
      await add.selectOption(lang);
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: `Remove ${name}` }).waitFor();
      const into = page.getByRole('combobox', { name: 'Translate into' });
      await into.selectOption(lang);
      t.regex(await page.getByRole('status').filter({ hasText: 'have no' }).innerText(), /5 of 5 texts have no/);
      // A quiz ending is one of the texts, named for what it is.
      await page.getByText('Quiz ending 1 · title').waitFor();
      const field = page.getByRole('textbox', { name: /^German|^Arabic/ }).first();
      await field.fill(text);
      await field.press('Tab');
      await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
      t.regex(await page.getByRole('status').filter({ hasText: 'have no' }).innerText(), /4 of 5 texts have no/);
      const dir = process.env.FORMLOOM_SHOTS;
      if (dir) await page.locator('fl-languages').screenshot({ path: `${dir}/languages-${width}.png` });
      t.is(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth), width, 'no sideways scrolling');
      t.deepEqual(await axeViolations(page), [], `axe at ${width}`);
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  }
  const saved = (await app.api('GET', `/forms/${id}`, { key: owner.key })).body;
  t.deepEqual(saved.languages, ['de', 'ar']);
  t.is(saved.translations.de.title, 'Umfrage');
  t.is(saved.translations.ar.title, 'استطلاع');
  t.truthy(qid);

  // Results filter by the language answered in (the filter shows once the form has several languages).
  const published = await app.api('POST', `/forms/${id}/publish`, { key: owner.key });
  const slug = published.body.slug as string;
  for (const language of ['de', 'ar', 'ar']) {
    const r = await app.api('POST', `/public/forms/${slug}/responses`, { body: { answers: [{ question_id: qid, value: 'Red' }], language } });
    t.is(r.status, 201, JSON.stringify(r.body));
  }
  const { page, errors, close } = await openPage(browser, { width: 390, cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${id}/results`);
    const stat = page.locator('.stat', { hasText: 'Responses' }).locator('.n');
    await stat.filter({ hasText: /^3$/ }).waitFor();
    await page.getByRole('combobox', { name: 'Language' }).selectOption('ar');
    await stat.filter({ hasText: /^2$/ }).waitFor();
    t.regex(page.url(), /language=ar/);
    t.deepEqual(await axeViolations(page), [], 'axe on the results');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
