import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { build } from 'esbuild';
import { waitFor } from '@formloom/core/testing';
import { createFileBlobStore } from '@formloom/blob-store-file';
import { startWorkspaceApp, type WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared';

/*
 * Issue 36, the theme and templates (docs/workspace.md "Theme", "Templates"): the template gallery and its
 * preview, a form created from a template, a preset and a library font chosen in the theme panel, a logo
 * uploaded, refused, removed and uploaded again, and the respondent's page with all of it: only the chosen
 * font's files fetched, from this server. Screenshots go to $FORMLOOM_SHOTS.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  app = await startWorkspaceApp('sqlite', { blobStore: createFileBlobStore(mkdtempSync(join(tmpdir(), 'fl-logos-'))) });
  browser = await sharedBrowser();
});
test.after.always(async () => {
  await app?.close();
});

const shot = async (page: Page, name: string, width: number) => {
  if (process.env.FORMLOOM_SHOTS) await page.screenshot({ path: join(process.env.FORMLOOM_SHOTS, `${name}-${width}.png`) });
};
const fitsWidth = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= (globalThis as any).innerWidth);

/** The templates as the gallery has them: the browser module bundled for Node (nothing of the page runs). */
async function loadTemplates(): Promise<Array<{ id: string; name: string; form: Record<string, unknown> }>> {
  const entry = join(__dirname, '..', '..', '..', 'src', 'browser', 'forms-list', 'templates.ts');
  const out = await build({ stdin: { contents: `export { FORM_TEMPLATES } from ${JSON.stringify(entry)}; export { templateBody } from ${JSON.stringify(entry.replace('templates.ts', 'template-kit.ts'))};`, resolveDir: __dirname, loader: 'ts' }, bundle: true, write: false, format: 'cjs', platform: 'neutral', logLevel: 'silent' });
  const mod = { exports: {} as any };
  new Function('module', 'exports', out.outputFiles[0]!.text)(mod, mod.exports);
  return mod.exports.FORM_TEMPLATES.map((t: any) => ({ id: t.id, name: t.name, form: mod.exports.templateBody(t) }));
}

const SVG_LOGO = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 160 48"><rect width="160" height="48" rx="10" fill="#38bdf8"/><text x="80" y="32" font-size="22" font-family="sans-serif" font-weight="700" text-anchor="middle" fill="#082f49">ACME</text></svg>';

test('every template of the gallery is accepted by POST /forms and publishes: at least 15, with logic, recall and a theme', async (t) => {
  const owner = await app.user('business');
  const templates = await loadTemplates();
  t.true(templates.length >= 15, `${templates.length} templates`);
  let withLogic = 0;
  for (const tpl of templates) {
    const created = await app.api('POST', '/forms', { key: owner.key, body: tpl.form });
    t.is(created.status, 201, `${tpl.id}: ${JSON.stringify(created.body)}`);
    const pub = await app.api('POST', `/forms/${created.body.id}/publish`, { key: owner.key });
    t.is(pub.status, 200, `${tpl.id} publishes: ${JSON.stringify(pub.body)}`);
    t.truthy(created.body.font_family, `${tpl.id} has a theme`);
    if (created.body.questions.some((q: any) => q.logic_jumps.length)) withLogic += 1;
  }
  t.true(withLogic >= 12, `${withLogic} templates have logic`);
});

for (const width of [1440, 390]) {
  test(`a form from the gallery after its preview; a preset, a library font and an uploaded logo; the respondent's page (${width} px)`, async (t) => {
    t.timeout(240_000);
    const owner = await app.user('business');
    const { page, errors, close } = await openPage(browser, { width, cookie: owner.cookie });
    try {
      await page.goto(app.url);
      await page.getByRole('button', { name: 'New form' }).click();
      const gallery = page.getByRole('region', { name: 'Start from' });
      t.true((await gallery.getByRole('button').count()) >= 16, 'Blank form and at least 15 templates');
      t.true(await fitsWidth(page), 'the gallery fits');
      t.deepEqual(await axeViolations(page), []);
      await shot(page, 'workspace-template-gallery', width);

      // The preview paints the template with the respondent's own element before anything is created.
      await gallery.getByRole('button', { name: /Event registration/ }).click();
      const dialog = page.getByRole('dialog', { name: 'Event registration' });
      await dialog.getByRole('heading', { name: 'Annual conference · 12 June' }).waitFor();
      await dialog.getByRole('button', { name: /Which ticket\?/ }).click();
      await dialog.getByText('VIP (with workshop)').waitFor();
      t.deepEqual(await axeViolations(page), []);
      await shot(page, 'workspace-template-preview', width);
      t.is((await app.api('GET', '/forms', { key: owner.key })).body.total, 0, 'a preview creates nothing');
      await dialog.getByRole('button', { name: 'Use this template' }).click();
      const title = page.getByRole('textbox', { name: 'Form title' });
      await title.waitFor();
      t.is(await title.inputValue(), 'Register for the conference');
      const id = new URL(page.url()).pathname.split('/')[2]!;
      const created = (await app.api('GET', `/forms/${id}`, { key: owner.key })).body;
      t.is(created.questions.length, 7);
      t.is(created.background_color, '#1c1917', 'the template’s preset came with it');
      t.true(created.questions.find((q: any) => q.title === 'Will you join the dinner?').logic_jumps.length === 1);

      // The theme panel: a preset in one click, then a font of the library (each name in its own face).
      await page.goto(`${app.url}/forms/${id}/theme`);
      const fontsAsked: string[] = [];
      page.on('request', (r) => {
        if (/\/formloom\/assets\/font-/.test(r.url())) fontsAsked.push(r.url());
      });
      await page.getByRole('button', { name: /^Ocean/ }).click();
      await page.getByRole('button', { name: /^Ocean/, pressed: true }).waitFor();
      const lora = page.getByRole('radio', { name: /^Lora/ });
      t.regex(await page.locator('.font-name', { hasText: /^Lora$/ }).evaluate((el: any) => (globalThis as any).getComputedStyle(el).fontFamily), /Lora/);
      await lora.check();
      const saved = (check: (f: any) => boolean, what: string): Promise<any> =>
        waitFor(async () => {
          const f = (await app.api('GET', `/forms/${id}`, { key: owner.key })).body;
          return check(f) ? f : false;
        }, { what });
      const themed = await saved((f) => f.background_color === '#082f49' && /^"Lora"/.test(f.font_family ?? ''), 'the preset and the font saved');
      t.is(themed.corner_radius, '14px');
      // The live preview follows: the respondent's element beside the fields has the preset's colours.
      t.is(await page.locator('fl-preview formloom-form').evaluate((el: any) => el.style.getPropertyValue('--fl-bg')), '#082f49');

      // A logo: uploaded (an SVG drawing), a file that is not an image refused, removed, uploaded again.
      const logoField = page.locator('fl-logo-field').first();
      await logoField.locator('input[type=file]').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SVG_LOGO) });
      await logoField.getByRole('button', { name: 'Remove' }).or(logoField.getByRole('alert')).waitFor();
      t.is(await logoField.getByRole('alert').count(), 0, await logoField.innerText());
      const withLogo = await saved((f) => typeof f.top_logo_url === 'string', 'the logo saved');
      t.regex(withLogo.top_logo_url, /\/api\/v1\/public\/logos\/frm_\w+\/[0-9a-f]{32}\.svg$/);
      await logoField.locator('.preview img').evaluate((img: any) => img.decode());
      await logoField.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') });
      await logoField.getByRole('alert').filter({ hasText: 'A logo must be a PNG, JPEG, WebP or SVG image' }).waitFor();
      t.deepEqual(await axeViolations(page), []);
      await logoField.evaluate((el: any) => el.scrollIntoView({ block: 'center' }));
      await shot(page, 'workspace-theme-logo', width);
      await page.evaluate(() => (globalThis as any).scrollTo(0, 0));
      await shot(page, 'workspace-theme-panel', width);
      await page.getByRole('heading', { name: 'Fonts' }).evaluate((el: any) => el.scrollIntoView({ block: 'center' }));
      await shot(page, 'workspace-theme-fonts', width);
      await logoField.getByRole('button', { name: 'Remove' }).click();
      await saved((f) => f.top_logo_url === null, 'the logo removed');
      await logoField.getByRole('button', { name: 'Upload an image' }).waitFor();
      await logoField.locator('input[type=file]').setInputFiles({ name: 'logo.svg', mimeType: 'image/svg+xml', buffer: Buffer.from(SVG_LOGO) });
      await saved((f) => typeof f.top_logo_url === 'string', 'the logo saved again');
      t.true(await fitsWidth(page), 'the theme panel fits');
      t.deepEqual(fontsAsked.filter((u) => !/-latin-400-normal\.woff2$/.test(u)), [], 'the picker loads one regular file per family');
      t.deepEqual(errors, []);

      // The respondent's page: the preset, the logo and only the chosen font's files, from this server.
      t.is((await app.api('POST', `/forms/${id}/publish`, { key: owner.key })).status, 200);
      const slug = (await app.api('GET', `/forms/${id}`, { key: owner.key })).body.slug;
      const respondent = await openPage(browser, { width });
      try {
        const asked: string[] = [];
        respondent.page.on('request', (r) => {
          if (/font/.test(r.resourceType()) || /\.woff2$/.test(r.url())) asked.push(new URL(r.url()).pathname);
        });
        await respondent.page.goto(`${app.url}/f/${slug}`);
        await respondent.page.getByRole('button', { name: 'Start' }).waitFor();
        await respondent.page.locator('formloom-form .fl-top-logo').evaluate((img: any) => img.decode());
        await respondent.page.getByRole('button', { name: 'Start' }).click();
        await respondent.page.getByRole('heading', { name: /Your first name/ }).waitFor();
        await respondent.page.evaluate(() => (globalThis as any).document.fonts.ready);
        t.true(await respondent.page.evaluate(() => (globalThis as any).document.fonts.check('16px Lora')), 'Lora is loaded');
        t.true(asked.length > 0 && asked.every((p) => p.startsWith('/formloom/assets/font-5.3.0-lora-')), asked.join(', '));
        t.true(await fitsWidth(respondent.page));
        t.deepEqual(await axeViolations(respondent.page), []);
        await shot(respondent.page, 'respondent-themed', width);
        t.deepEqual(respondent.errors, []);
      } finally {
        await respondent.close();
      }
    } finally {
      await close();
    }
  });
}
