import test from '../helpers/page-test';
import type { Browser, BrowserContextOptions, Page, Request } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { hostSite, launchBrowser } from '../helpers/browser';

/*
 * The defects a first respondent hit (issue 20, "Defects"), one test each, through a real browser: what the
 * respondent sees and does, and what the API stored.
 *
 * Two tests at a time (helpers/page-test.ts): run all together, seventeen pages loading at once on a two-core CI
 * machine already running three other test files left some navigations without an answer for 90 seconds
 * (docs/decisions.md, "Session 13"); one at a time, the file waited for each test's round trips in turn.
 */
let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

async function open(opts: BrowserContextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, ...opts });
  // A busy machine: give navigation and waits room (nothing here is timed).
  context.setDefaultTimeout(90_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return { page, errors, close: () => context.close() };
}

async function publish(app: TestApp, key: string, body: Record<string, unknown>) {
  const res = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; slug: string; questions: Array<{ id: string }> };
}

const form = (page: Page) => page.locator('formloom-form').first();
const heading = (page: Page, name: string) => form(page).getByRole('heading', { name }).waitFor();
async function tapLabel(page: Page, name: string) {
  const id = await form(page).getByRole('radio', { name, exact: true }).getAttribute('id');
  await form(page).locator(`label[for="${id}"]`).click();
}

/** The API writes (any method but GET) the page sends, in order, and how many of its requests are still under way. */
function watchWrites(page: Page) {
  const writes: string[] = [];
  const open = new Set<Request>();
  page.on('request', (r) => {
    // The funnel's view and start reports are keepalive beacons: the browser reports no end for them to the
    // test (they may outlive the page by design), so they are not counted as in flight.
    if (r.url().endsWith('/visits')) return;
    open.add(r);
    if (r.method() !== 'GET' && r.url().includes('/api/v1/')) writes.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
  return { writes, inFlight: () => open.size };
}

/** WCAG contrast of two computed `rgb(...)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = c.match(/[\d.]+/g)!.slice(0, 3).map((x) => {
      const v = Number(x) / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(a), lum(b)].sort((m, n) => n - m);
  return (x! + 0.05) / (y! + 0.05);
}

const colours = (page: Page, selector: string) =>
  form(page)
    .locator(selector)
    .evaluate((el: any) => {
      const g = (globalThis as any).getComputedStyle;
      const root = el.closest('.fl-root');
      return { color: g(el).color as string, bg: g(root).backgroundColor as string, text: g(root).color as string };
    });

let app: TestApp;
let key: string;
test.before(async () => {
  app = await startTestApp('sqlite');
  key = (await app.user()).key;
});
test.after.always(async () => {
  await app?.close();
});

test('1. a tapped star or scale number shows as selected, and arrows move the selection', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, {
    title: 'Scales',
    questions: [
      { type: 'rating', title: 'Stars', properties: { steps: 5 } },
      { type: 'opinion_scale', title: 'Scale', properties: { min: 0, max: 10 } },
    ],
  });
  const { page, errors, close } = await open();
  try {
    // A tap moves on by itself a moment later (docs/respondents.md "Moving on"): the page's clock stands still
    // here, so that what the tap shows can be looked at first.
    await page.clock.install();
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Stars');
    await page.clock.pauseAt(Date.now() + 1000);
    await tapLabel(page, '3 of 5');
    t.true(await form(page).getByRole('radio', { name: '3 of 5' }).isChecked());
    t.is(await form(page).locator('.fl-lit').count(), 3, 'three stars lit');
    await page.keyboard.press('ArrowRight');
    t.true(await form(page).getByRole('radio', { name: '4 of 5' }).isChecked());
    t.is(await form(page).locator('.fl-lit').count(), 4);
    await form(page).getByRole('button', { name: 'OK' }).click();
    await heading(page, 'Scale');
    await tapLabel(page, '7');
    t.true(await form(page).getByRole('radio', { name: '7', exact: true }).isChecked());
    const id = await form(page).getByRole('radio', { name: '7', exact: true }).getAttribute('id');
    const look = await form(page).locator(`label[for="${id}"]`).evaluate((el: any) => (globalThis as any).getComputedStyle(el).backgroundColor as string);
    t.not(look, 'rgba(0, 0, 0, 0)', 'the chosen number is filled');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

for (const kind of DB_KINDS) {
  test(`2. [${kind}] the thank-you screen has no question arrows and a completed response is never sent twice`, async (t) => {
    t.timeout(240_000);
    const db = kind === 'sqlite' ? app : await startTestApp(kind);
    const { page, errors, close } = await open();
    try {
      // The page's timers run on a clock the test can move: any retry or queued send comes due below.
      await page.clock.install();
      const k = kind === 'sqlite' ? key : (await db.user()).key;
      const f = await publish(db, k, { title: 'Once', questions: [{ type: 'short_text', title: 'Name' }] });
      await page.goto(`${db.url}/f/${f.slug}`);
      await heading(page, 'Name');
      const sent = watchWrites(page);
      await page.keyboard.type('Ada');
      await page.keyboard.press('Enter');
      await heading(page, 'Thank you!');
      const atThanks = sent.writes.length;
      t.false(await form(page).getByRole('button', { name: 'Previous question' }).isVisible(), 'no arrow back into the answered form');
      t.false(await form(page).locator('.fl-nav').isVisible());
      await page.keyboard.press('Enter');
      await page.keyboard.press('ArrowUp');
      // Counted once the page has finished: a minute of its timers run, and no request of its own in flight.
      await page.clock.runFor(60_000);
      await waitFor(() => sent.inFlight() === 0, { what: "the page's requests to end" });
      t.deepEqual(sent.writes.slice(atThanks), [], 'nothing sent after the thank-you screen');
      t.is((await db.api('GET', `/forms/${f.id}/responses`, { key: k })).body.total, 1);
      t.deepEqual(errors, []);
    } finally {
      await close();
      if (db !== app) await db.close();
    }
  });
}

test('3. errors are visibly errors in the form colours, with an icon, in whole sentences', async (t) => {
  t.timeout(240_000);
  const questions = [
    { type: 'short_text', title: 'Code', validations: { pattern: '[A-Z]{2}-\\d{4}', pattern_message: 'Use the format AB-1234' } },
    { type: 'multiple_choice', title: 'Pick', properties: { allow_multiple: true, choices: [{ label: 'A' }, { label: 'B' }, { label: 'C' }] }, validations: { max_selections: 2 } },
  ];
  for (const [theme, scheme] of [
    [{ background_color: '#ffffff', theme_color: '#2563eb' }, 'light'],
    [{ background_color: '#111827', theme_color: '#a78bfa' }, 'dark'],
    [{ background_color: '#ffffff', theme_color: '#2563eb' }, 'dark'],
  ] as const) {
    const f = await publish(app, key, { title: 'Errors', ...theme, questions });
    const { page, close } = await open({ colorScheme: scheme });
    try {
      await page.goto(`${app.url}/f/${f.slug}`);
      await heading(page, 'Code');
      await page.keyboard.type('x');
      await page.keyboard.press('Enter');
      t.is(await form(page).locator('.fl-error').innerText(), 'Use the format AB-1234');
      const c = await colours(page, '.fl-error');
      t.true(contrast(c.color, c.bg) >= 4.5, `error contrast ${contrast(c.color, c.bg).toFixed(2)} on ${theme.background_color} (${scheme})`);
      t.not(c.color, c.text, 'an error is not body-coloured text');
      t.is(await form(page).locator('.fl-error svg').count(), 1, 'an icon');
      await form(page).getByRole('textbox').fill('AB-1234');
      await page.keyboard.press('Enter');
      await heading(page, 'Pick');
      for (const k of ['a', 'b', 'c']) await page.keyboard.press(k);
      await page.keyboard.press('Enter');
      t.is(await form(page).locator('.fl-error').innerText(), 'Choose at most 2');
    } finally {
      await close();
    }
  }
});

test('4. the text shown before the script runs is readable, and a light form never flashes dark while loading', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Light', description: 'A light form', background_color: '#ffffff', questions: [{ type: 'short_text', title: 'Name' }] });
  const noJs = await open({ javaScriptEnabled: false });
  try {
    await noJs.page.goto(`${app.url}/f/${f.slug}`);
    const seen = await noJs.page.evaluate(() => {
      const d = (globalThis as any).document;
      const g = (globalThis as any).getComputedStyle;
      return { text: g(d.querySelector('formloom-form p')).color as string, bg: g(d.body).backgroundColor as string };
    });
    t.true(contrast(seen.text, seen.bg) >= 4.5, `fallback contrast ${contrast(seen.text, seen.bg).toFixed(2)}`);
  } finally {
    await noJs.close();
  }
  // On a host page, while the form is on its way.
  const host = await hostSite();
  const { page, close } = await open();
  try {
    host.html = `<!doctype html><html lang="en"><head><title>Host</title><script type="module" src="${app.url}/embed.js"></script></head><body><formloom-form slug="${f.slug}" base-url="${app.url}"></formloom-form></body></html>`;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(`**/public/forms/${f.slug}`, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(host.url);
    await form(page).locator('.fl-loading').waitFor();
    const bg = await form(page).locator('.fl-root').evaluate((el: any) => (globalThis as any).getComputedStyle(el).backgroundColor as string);
    t.is(bg, 'rgba(0, 0, 0, 0)', 'the host page shows through until the theme is known');
    release();
    await heading(page, 'Name');
  } finally {
    await close();
    await host.close();
  }
});

test('5. a tap on a single-choice option moves on', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, {
    title: 'Tap',
    questions: [
      { type: 'multiple_choice', title: 'Colour', properties: { choices: [{ label: 'Red' }, { label: 'Green' }] } },
      { type: 'short_text', title: 'Why' },
    ],
  });
  const { page, close } = await open({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 800 } });
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Colour');
    const id = await form(page).getByRole('radio', { name: 'Green' }).getAttribute('id');
    await form(page).locator(`label[for="${id}"]`).tap();
    await heading(page, 'Why');
    t.pass();
  } finally {
    await close();
  }
});

test('6. Enter on the welcome screen starts the form', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Hello', welcome_title: 'Welcome', questions: [{ type: 'short_text', title: 'Name' }] });
  const { page, close } = await open();
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Welcome');
    await page.keyboard.press('Enter');
    await heading(page, 'Name');
    t.pass();
  } finally {
    await close();
  }
});

test('7. the 0-10 scale stays on one row at 390 px with its end labels under its ends', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'NPS', questions: [{ type: 'opinion_scale', title: 'Recommend?', properties: { min: 0, max: 10, min_label: 'Never', max_label: 'Surely' } }] });
  const { page, close } = await open({ viewport: { width: 390, height: 800 } });
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Recommend?');
    const boxes = await form(page).locator('.fl-step label').evaluateAll((els: any[]) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ top: r.top, left: r.left, right: r.right })));
    t.is(boxes.length, 11);
    t.is(new Set(boxes.map((b) => Math.round(b.top))).size, 1, 'one row');
    const ends = await form(page).locator('.fl-ends span').evaluateAll((els: any[]) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
    t.true(Math.abs(ends[0]!.left - boxes[0]!.left) <= 2, 'the low label starts under 0');
    t.true(Math.abs(ends[1]!.right - boxes[10]!.right) <= 2, 'the high label ends under 10');
    t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 390), 'no horizontal scrolling');
  } finally {
    await close();
  }
});

test('8. a plain <script src=".../embed.js"> works as well as type="module"', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Plain', questions: [{ type: 'short_text', title: 'Name' }] });
  const host = await hostSite();
  const { page, errors, close } = await open();
  try {
    host.html = `<!doctype html><html lang="en"><head><title>Host</title><script src="${app.url}/embed.js"></script></head><body><formloom-form slug="${f.slug}"></formloom-form></body></html>`;
    await page.goto(host.url);
    await heading(page, 'Name');
    t.deepEqual(errors, []);
  } finally {
    await close();
    await host.close();
  }
});

test('9. the popup keeps its result screen open after submitting', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Pop', thank_you_title: 'All done', questions: [{ type: 'yes_no', title: 'Happy?' }] });
  const host = await hostSite();
  const { page, close } = await open();
  try {
    // The page's timers (the popup's and the form's, in every frame) run on a clock the test moves.
    await page.clock.install();
    host.html = `<!doctype html><html lang="en"><head><title>Host</title><script type="module" src="${app.url}/embed.js"></script></head><body><formloom-form mode="popup" slug="${f.slug}"></formloom-form></body></html>`;
    await page.goto(host.url);
    await form(page).getByRole('button', { name: 'Open form' }).click();
    await heading(page, 'Happy?');
    await page.keyboard.press('y');
    await heading(page, 'All done');
    // A minute of the page's timers, far past the 3 s the popup used to wait before closing itself.
    await page.clock.runFor(60_000);
    t.true(await form(page).getByRole('dialog').isVisible());
    t.true(await form(page).getByRole('heading', { name: 'All done' }).isVisible());
  } finally {
    await close();
    await host.close();
  }
});

test('10. an embedded form adds no <h1> to the host page', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Embedded', welcome_title: 'Hi there', questions: [{ type: 'yes_no', title: 'Happy?' }] });
  const host = await hostSite();
  const { page, close } = await open();
  try {
    host.html = `<!doctype html><html lang="en"><head><title>Host</title><script type="module" src="${app.url}/embed.js"></script></head><body><h1>Shop</h1><formloom-form slug="${f.slug}"></formloom-form></body></html>`;
    await page.goto(host.url);
    await heading(page, 'Hi there');
    t.is(await page.locator('h1').count(), 1, 'welcome screen');
    await form(page).getByRole('button', { name: 'Start' }).click();
    await heading(page, 'Happy?');
    await page.keyboard.press('y');
    await heading(page, 'Thank you!');
    t.is(await page.locator('h1').count(), 1, 'thank-you screen');
  } finally {
    await close();
    await host.close();
  }
});

test('10b. an embedded form leaves the host page\'s focus where it is until the respondent uses it', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Quiet', questions: [{ type: 'short_text', title: 'Name' }] });
  const host = await hostSite();
  const { page, close } = await open();
  try {
    host.html = `<!doctype html><html lang="en"><head><title>Host</title><script src="${app.url}/embed.js"></script></head><body><input id="search" aria-label="Search" autofocus><formloom-form slug="${f.slug}"></formloom-form></body></html>`;
    await page.goto(host.url);
    await heading(page, 'Name');
    t.is(await page.evaluate(() => (globalThis as any).document.activeElement?.id), 'search');
    await form(page).getByRole('textbox', { name: 'Name' }).click();
    await page.keyboard.type('Ada');
    await page.keyboard.press('Enter');
    await heading(page, 'Thank you!');
  } finally {
    await close();
    await host.close();
  }
});

test('11. no "press Enter" on touch screens; long text says Shift+Enter makes a new line', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Hints', questions: [{ type: 'short_text', title: 'Name' }, { type: 'long_text', title: 'Story' }] });
  const touch = await open({ hasTouch: true, isMobile: true, viewport: { width: 390, height: 800 } });
  const desk = await open();
  try {
    await touch.page.goto(`${app.url}/f/${f.slug}`);
    await heading(touch.page, 'Name');
    t.false(await form(touch.page).getByText(/press Enter/).isVisible());
    await desk.page.goto(`${app.url}/f/${f.slug}`);
    await heading(desk.page, 'Name');
    t.true(await form(desk.page).getByText(/press Enter/).isVisible());
    await desk.page.keyboard.type('x');
    await desk.page.keyboard.press('Enter');
    await heading(desk.page, 'Story');
    t.true(await form(desk.page).getByText(/Shift \+ Enter/).isVisible());
  } finally {
    await touch.close();
    await desk.close();
  }
});

test('12. the progress bar and counter follow the questions logic leaves on the path', async (t) => {
  t.timeout(240_000);
  const created = await publish(app, key, {
    published: false,
    title: 'Skips',
    questions: [
      { type: 'yes_no', title: 'Pet?' },
      { type: 'short_text', title: 'Pet name' },
      { type: 'short_text', title: 'Pet age' },
      { type: 'short_text', title: 'Last' },
    ],
  });
  const qs = created.questions;
  const withJump = (await app.api('GET', `/forms/${created.id}`, { key })).body.questions.map((q: any, i: number) =>
    i === 0 ? { ...q, logic_jumps: [{ conditions: [{ op: 'equals', value: false }], to: qs[3]!.id }] } : q,
  );
  const put = await app.api('PUT', `/forms/${created.id}`, { key, body: { questions: withJump, published: true } });
  t.is(put.status, 200);
  const { page, close } = await open();
  try {
    await page.goto(`${app.url}/f/${created.slug}`);
    await heading(page, 'Pet?');
    await page.keyboard.press('n');
    await heading(page, 'Last');
    t.is(await form(page).locator('.fl-counter').innerText(), '2 / 2');
    t.is(await form(page).getByRole('progressbar').getAttribute('aria-valuenow'), '50');
  } finally {
    await close();
  }
});

for (const kind of DB_KINDS) {
  test(`13. [${kind}] contact_info sub-fields are required one by one`, async (t) => {
    t.timeout(240_000);
    const db = kind === 'sqlite' ? app : await startTestApp(kind);
    const { page, errors, close } = await open();
    try {
      const k = kind === 'sqlite' ? key : (await db.user()).key;
      const f = await publish(db, k, {
        title: 'Contact',
        questions: [{ type: 'contact_info', title: 'Reach you', required: true, properties: { fields: ['first_name', 'email', 'phone', 'company'], required_fields: ['email'] } }],
      });
      await page.goto(`${db.url}/f/${f.slug}`);
      await heading(page, 'Reach you');
      t.is(await form(page).getByLabel('Phone').getAttribute('aria-required'), null);
      await form(page).getByRole('button', { name: 'Submit' }).click();
      t.is(await form(page).locator('.fl-error').innerText(), 'Email: this field is required');
      await form(page).getByLabel('Email').fill('ada@example.com');
      await form(page).getByRole('button', { name: 'Submit' }).click();
      await heading(page, 'Thank you!');
      const list = await db.api('GET', `/forms/${f.id}/responses`, { key: k });
      t.deepEqual(list.body.responses[0].answers[0].value, { email: 'ada@example.com' });
      // The server holds the same rule for a program that posts without the page.
      const bare = await fetch(`${db.url}/api/v1/public/forms/${f.slug}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ answers: [{ question_id: f.questions[0]!.id, value: { first_name: 'Ada' } }] }),
      });
      t.is(bare.status, 400);
      t.deepEqual(errors, []);
    } finally {
      await close();
      if (db !== app) await db.close();
    }
  });
}

test('14. a favicon, a description, and noindex on links that carry credentials', async (t) => {
  t.timeout(240_000);
  const f = await publish(app, key, { title: 'Meta', description: 'Tell us', questions: [{ type: 'short_text', title: 'Name' }] });
  const icon = await fetch(`${app.url}/favicon.ico`);
  t.is(icon.status, 200);
  t.regex(icon.headers.get('content-type') ?? '', /^image\//);
  const html = await (await fetch(`${app.url}/f/${f.slug}`)).text();
  t.regex(html, /<meta name="description" content="Tell us">/);
  for (const path of ['/s/abc123', '/teams/invite/sometoken']) {
    const res = await fetch(`${app.url}${path}`);
    t.is(res.headers.get('x-robots-tag'), 'noindex, nofollow', path);
  }
  const { page, close } = await open();
  const missing: string[] = [];
  page.on('response', (r) => r.status() === 404 && missing.push(r.url()));
  try {
    await page.goto(`${app.url}/f/${f.slug}`);
    await heading(page, 'Name');
    t.deepEqual(missing, [], 'no request of the page is a 404');
  } finally {
    await close();
  }
});
