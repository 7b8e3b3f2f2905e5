'use strict';
// `node bench/renderer.js` (after `npm run build`): the respondent's page by the numbers. Starts the
// self-hosted app, publishes a form with every question type, then reports (docs/benchmarks.md "Renderer"):
// - the page's JavaScript and CSS as served, raw and gzipped (every module the entry imports, plus embed.js);
// - first render from a cold cache on loopback: a fresh browser context per run (nothing cached), timed by
//   the browser's own Performance entries: navigation start to DOMContentLoaded, first contentful paint,
//   and the element's `formloom:first-render` mark (the first question in the DOM).
// Knobs (env): RENDER_RUNS (default 15); SCREENSHOT=<file.png> also saves a themed form's question screen
// (docs/images/themed-form.png is made so). Needs /usr/bin/chromium (apt-get install chromium).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { chromium } = require('playwright-core');
const { startFormloom } = require('./lib/apps');
const { describe } = require('./lib/stats');

const RUNS = Number(process.env.RENDER_RUNS || 15);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

const QUESTIONS = [
  { type: 'short_text', title: 'Name', required: true },
  { type: 'long_text', title: 'About you' },
  { type: 'email', title: 'Email' },
  { type: 'number', title: 'Age', properties: { min: 0, max: 150 } },
  { type: 'date', title: 'Birthday' },
  { type: 'multiple_choice', title: 'Colour', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }] } },
  { type: 'dropdown', title: 'Country', properties: { choices: [{ label: 'France' }, { label: 'Spain' }] } },
  { type: 'yes_no', title: 'Pet?' },
  { type: 'rating', title: 'Rate', properties: { steps: 5 } },
  { type: 'opinion_scale', title: 'Recommend?' },
  { type: 'file_upload', title: 'CV' },
  { type: 'contact_info', title: 'Contact' },
  { type: 'address', title: 'Address' },
];

async function api(app, method, p, body) {
  const res = await fetch(`${app.url}/api/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${app.apiKey}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Every script the page loads: the entry and what it imports, transitively, as the server sends them. */
async function moduleSizes(app) {
  const entryUrl = `${app.url}/formloom/assets/renderer/src/browser/index.js`;
  const seen = new Map();
  const queue = [entryUrl, `${app.url}/embed.js`];
  while (queue.length) {
    const url = queue.shift();
    if (seen.has(url)) continue;
    const text = await (await fetch(url)).text();
    seen.set(url, Buffer.from(text));
    for (const m of text.matchAll(/(?:from|import)\s*'([^']+)'/g)) queue.push(new URL(m[1], url).href);
  }
  const css = Buffer.from(await (await fetch(`${app.url}/formloom/assets/formloom.css`)).text());
  const gz = (b) => zlib.gzipSync(b, { level: 9 }).length;
  const js = [...seen.values()];
  return {
    js_files: js.length,
    js_bytes: js.reduce((s, b) => s + b.length, 0),
    // Gzipped file by file, as a server compresses each answer (not one concatenated stream).
    js_gzip_bytes: js.reduce((s, b) => s + gz(b), 0),
    css_bytes: css.length,
    css_gzip_bytes: gz(css),
  };
}

/** A themed form at a phone-ish width, on its multiple-choice question. */
async function screenshot(app, browser, file) {
  const themed = await api(app, 'POST', '/forms', {
    title: 'Coffee survey',
    published: true,
    theme_color: '#b45309',
    background_color: '#fffbeb',
    text_color: '#1c1917',
    title_color: '#78350f',
    button_color: '#b45309',
    font_family: 'Georgia, serif',
    question_font_size: '26px',
    branding_footer_text: 'Acme Coffee',
    questions: [
      { type: 'multiple_choice', title: 'How do you take your coffee?', description: 'Type a letter or click.', required: true, properties: { allow_multiple: true, choices: [{ label: 'Espresso' }, { label: 'Flat white' }, { label: 'Filter' }, { label: 'No coffee, thanks' }] } },
      { type: 'rating', title: 'How good was today\'s cup?', properties: { steps: 5 } },
    ],
  });
  const context = await browser.newContext({ viewport: { width: 640, height: 560 } });
  const page = await context.newPage();
  await page.goto(`${app.url}/f/${themed.slug}`);
  await page.locator('formloom-form .fl-question').waitFor();
  await page.keyboard.press('b');
  await page.waitForTimeout(100);
  await page.screenshot({ path: file });
  await context.close();
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'formloom-render-'));
  const app = await startFormloom(dataDir, { forms: 0 });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
  try {
    const form = await api(app, 'POST', '/forms', { title: 'Bench', published: true, questions: QUESTIONS });
    const sizes = await moduleSizes(app);
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${app.url}/f/${form.slug}`);
      await page.locator('formloom-form .fl-question').waitFor();
      runs.push(
        await page.evaluate(() => {
          const nav = performance.getEntriesByType('navigation')[0];
          const fcp = performance.getEntriesByName('first-contentful-paint')[0];
          const mark = performance.getEntriesByName('formloom:first-render')[0];
          return { dcl: nav.domContentLoadedEventEnd, fcp: fcp ? fcp.startTime : null, firstRender: mark.startTime };
        }),
      );
      await context.close();
    }
    if (process.env.SCREENSHOT) await screenshot(app, browser, process.env.SCREENSHOT);
    const result = {
      when: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      loadavg: os.loadavg().map((n) => Math.round(n * 10) / 10),
      chromium: browser.version(),
      sizes,
      runs: RUNS,
      dom_content_loaded_ms: describe(runs.map((r) => r.dcl), 1),
      first_contentful_paint_ms: describe(runs.map((r) => r.fcp), 1),
      first_render_ms: describe(runs.map((r) => r.firstRender), 1),
    };
    console.log(JSON.stringify(result, null, 2));
  } finally {
    await browser.close();
    await app.proc.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
