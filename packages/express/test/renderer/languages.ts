import test from '../helpers/page-test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, hostSite, launchBrowser } from '../helpers/browser';

/*
 * The page in the respondent's language (docs/respondents.md "Languages"): the form's `language`, else the
 * browser's; right to left for Arabic and Hebrew; the owner's `strings` over any word; the settings checked
 * and stored through the API.
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
  return { page, errors, close: () => context.close() };
}

async function publish(a: TestApp, k: string, body: Record<string, unknown>) {
  const res = await a.api('POST', '/forms', { key: k, body: { published: true, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; slug: string };
}

const form = (page: Page) => page.locator('formloom-form');
const QUESTIONS = [{ type: 'short_text', title: 'Q', required: true }];

const SUBMIT: Record<string, string> = { en: 'Submit', es: 'Enviar', fr: 'Envoyer', de: 'Absenden', pt: 'Enviar', it: 'Invia', nl: 'Verzenden', pl: 'Wyślij', ja: '送信', zh: '提交', ar: 'إرسال', he: 'שליחה' };
const REQUIRED: Record<string, string> = {
  en: 'This question is required', es: 'Esta pregunta es obligatoria', fr: 'Cette question est obligatoire', de: 'Diese Frage ist ein Pflichtfeld',
  pt: 'Esta pergunta é obrigatória', it: 'Questa domanda è obbligatoria', nl: 'Deze vraag is verplicht', pl: 'To pytanie jest wymagane',
  ja: 'この質問は必須です', zh: '此题为必填', ar: 'هذا السؤال مطلوب', he: 'זוהי שאלת חובה',
};

test("each language's words on the buttons, errors and progress; Arabic and Hebrew right to left", async (t) => {
  t.timeout(240_000);
  const { page, errors, close } = await open();
  try {
    for (const lang of Object.keys(SUBMIT)) {
      const f = await publish(app, key, { title: `In ${lang}`, language: lang, questions: QUESTIONS });
      await page.goto(`${app.url}/f/${f.slug}`);
      const submit = form(page).getByRole('button', { name: SUBMIT[lang]!, exact: true });
      await submit.waitFor();
      await submit.click();
      t.is(await form(page).locator('.fl-error').innerText(), REQUIRED[lang]!, lang);
      const rtl = lang === 'ar' || lang === 'he';
      t.is(await page.locator('html').getAttribute('lang'), lang);
      t.is(await page.locator('html').getAttribute('dir'), rtl ? 'rtl' : 'ltr');
      t.is(await form(page).locator('.fl-root').evaluate((el: any) => (globalThis as any).getComputedStyle(el).direction as string), rtl ? 'rtl' : 'ltr', lang);
      if (lang !== 'en') t.not(await form(page).getByRole('progressbar').getAttribute('aria-label'), 'Progress', `${lang}: the progress bar's name`);
      if (rtl) {
        const [q, button] = await Promise.all([form(page).locator('.fl-question').boundingBox(), submit.boundingBox()]);
        t.true(button!.x + button!.width > q!.x + q!.width - 40, `${lang}: the button sits on the right, where the text starts`);
        t.deepEqual(await axeViolations(page), [], `${lang}: axe`);
      }
    }
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test("without a language the page speaks the browser's, or English when it has no such words", async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Any', welcome_title: 'Hi', questions: QUESTIONS });
  for (const [locale, start, lang] of [['de-DE', 'Los geht’s', 'de'], ['pt-BR', 'Começar', 'pt'], ['sv-SE', 'Start', 'en']] as const) {
    const { page, close } = await open({ locale });
    try {
      await page.goto(`${app.url}/f/${f.slug}`);
      await form(page).getByRole('button', { name: start, exact: true }).waitFor();
      t.is(await page.locator('html').getAttribute('lang'), lang, locale);
    } finally {
      await close();
    }
  }
});

test('an embedded form fetches its language\'s words beside the script (cached immutable)', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Embedded', language: 'fr', questions: QUESTIONS });
  const host = await hostSite();
  const { page, errors, close } = await open();
  const fetched: string[] = [];
  page.on('response', (r) => /formloom-lang-fr\.\w+\.json$/.test(r.url()) && fetched.push(`${r.status()} ${r.headers()['cache-control']}`));
  try {
    host.html = `<!doctype html><html lang="en"><head><title>Host</title><script src="${app.url}/embed.js"></script></head><body><formloom-form slug="${f.slug}"></formloom-form></body></html>`;
    await page.goto(host.url);
    await form(page).getByRole('button', { name: 'Envoyer' }).waitFor();
    t.deepEqual(fetched, ['200 public, max-age=31536000, immutable']);
    t.deepEqual(errors, []);
  } finally {
    await close();
    await host.close();
  }
});

test("the owner's strings replace the page's own words, in any language", async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Own', language: 'es', strings: { submit: 'Mandar ya', error_required: 'Falta esta respuesta' }, questions: QUESTIONS });
  const { page, close } = await open();
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await form(page).getByRole('button', { name: 'Mandar ya' }).click();
    t.is(await form(page).locator('.fl-error').innerText(), 'Falta esta respuesta');
    t.is(await form(page).locator('.fl-enter').innerText(), 'pulsa Intro ↵', 'the rest stays in Spanish');
  } finally {
    await close();
  }
});

for (const kind of DB_KINDS) {
  test(`[${kind}] language and strings: checked, stored, published and public`, async (t) => {
    t.timeout(240_000);
    const a = kind === 'sqlite' ? app : await startTestApp(kind);
    try {
      const k = kind === 'sqlite' ? key : (await a.user()).key;
      for (const bad of [{ language: 'French' }, { language: 'fr_FR' }, { strings: { 'Bad Key': 'x' } }, { strings: { submit: 'x'.repeat(501) } }, { strings: { submit: 3 } }]) {
        const res = await a.api('POST', '/forms', { key: k, body: { title: 'Bad', ...bad } });
        t.is(res.status, 400, JSON.stringify(bad).slice(0, 60));
        t.is(res.body.error.code, 'BAD_REQUEST');
      }
      const f = await publish(a, k, { title: 'Good', language: 'pt-BR', strings: { ok: 'Seguir' }, questions: QUESTIONS });
      const read = await a.api('GET', `/forms/${f.id}`, { key: k });
      t.is(read.body.language, 'pt-BR');
      t.deepEqual(read.body.strings, { ok: 'Seguir' });
      const pub = await a.api('GET', `/public/forms/${f.slug}`);
      t.is(pub.body.snapshot.language, 'pt-BR');
      t.deepEqual(pub.body.snapshot.strings, { ok: 'Seguir' });
      const cleared = await a.api('PUT', `/forms/${f.id}`, { key: k, body: { language: null, strings: null } });
      t.is(cleared.status, 200);
      t.is(cleared.body.language, null);
    } finally {
      if (a !== app) await a.close();
    }
  });
}
