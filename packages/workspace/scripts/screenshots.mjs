#!/usr/bin/env node
// Screenshots of every workspace screen at 390 px (phone, touch) and 1366 px, for docs/workspace.md:
//   node packages/workspace/scripts/screenshots.mjs [out-dir]      (after `npm run build`; needs /usr/bin/chromium)
// Starts the self-hosted app on a free port over a new data folder, takes the first-run screen, makes the admin
// account, fills the instance (forms, a published form with responses, a team, a contract form), then takes each
// screen as its owner sees it. Writes <out-dir>/<screen>-390.png and -1366.png (default docs/images/screens),
// shrunk with pngquant when it is installed, and prints any screen that scrolls sideways or logs an error.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const out = process.argv[2] ?? join(root, 'docs/images/screens');
const only = process.env.SHOTS_ONLY ? process.env.SHOTS_ONLY.split(',') : null;
const require = createRequire(join(root, 'package.json'));
const { chromium } = require('playwright-core');

const port = await new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(join(tmpdir(), 'formloom-shots-'));
const server = spawn(join(root, 'examples/self-hosted/bin/formloom-server'), [], {
  env: { ...process.env, PORT: String(port), FORMLOOM_DATA_DIR: dataDir, FORMLOOM_RATE_LIMITS: 'off', FORMLOOM_LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
mkdirSync(out, { recursive: true });

async function waitUp() {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${base}/api/v1/auth/config`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the app did not start');
}

/** The API as the signed-in admin: the session cookie, its CSRF token and the Origin. */
let session = { cookie: '', csrf: '' };
async function api(method, path, body) {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { origin: base, cookie: session.cookie, 'x-formloom-csrf': session.csrf, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const json = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { json, res };
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
});
const problems = [];

/**
 * One screen at both widths: opens `path`, runs `prepare(page)` (clicks that open a panel), waits for the
 * network to settle, and saves the viewport (or the whole page with `full`).
 */
async function shoot(name, path, { prepare, signedIn = true, full = false, height } = {}) {
  if (only && !only.includes(name)) return;
  for (const [width, h, mobile] of [[390, 844, true], [1366, 900, false]]) {
    const context = await browser.newContext({ viewport: { width, height: height ?? h }, isMobile: mobile, hasTouch: mobile });
    if (signedIn) await context.addCookies(session.cookies);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (e) => problems.push(`${name} ${width}: ${e.message}`));
    // Signed out, the workspace asks who is signed in first: its 401 is the expected answer.
    page.on('console', (m) => m.type() === 'error' && !(signedIn === false && m.text().includes('401')) && problems.push(`${name} ${width}: console: ${m.text()}`));
    await page.goto(`${base}${path}`, { waitUntil: 'networkidle' });
    if (prepare) await prepare(page, width);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300); // transitions and lazily loaded panels
    const file = join(out, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: full });
    const wide = await page.evaluate(() => document.documentElement.scrollWidth);
    if (wide > width + 1) problems.push(`${name} ${width}: scrolls sideways (${wide} px wide)`);
    await context.close();
    spawnSync('pngquant', ['--force', '--skip-if-larger', '--quality', '60-90', '--output', file, file]);
    console.log(file);
  }
}

try {
  await waitUp();
  await shoot('first-run', '/signin', { signedIn: false });

  // The admin account, signed in.
  const signup = await fetch(`${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { origin: base, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ada@example.com', password: 'a long passphrase', first_name: 'Ada', last_name: 'Lovelace' }),
  });
  if (!signup.ok) throw new Error(`signup: ${signup.status} ${await signup.text()}`);
  const cookieLine = signup.headers.getSetCookie().map((c) => c.split(';')[0]);
  session = { cookie: cookieLine.join('; '), csrf: (await signup.json()).csrf_token };
  session.cookies = cookieLine.map((c) => {
    const i = c.indexOf('=');
    return { name: c.slice(0, i), value: c.slice(i + 1), url: base };
  });
  await shoot('signin', '/signin', { signedIn: false });
  await shoot('forms-empty', '/');

  const me = (await api('GET', '/auth/session')).json;
  const myId = me.user?.id ?? me.id;
  await api('PATCH', `/admin/users/${myId}`, { plan: 'enterprise' });

  // The reference form of the benchmark: 12 questions, a recall, a jump, a theme colour; published, answered.
  const countries = ['Argentina', 'Australia', 'Austria', 'Belgium', 'Brazil', 'Canada', 'Chile', 'Denmark', 'Egypt', 'Finland', 'France', 'Germany', 'Greece', 'India', 'Ireland', 'Italy', 'Japan', 'Kenya', 'Mexico', 'Netherlands', 'New Zealand', 'Nigeria', 'Norway', 'Poland', 'Portugal', 'South Africa', 'Spain', 'Sweden', 'United Kingdom', 'United States'];
  const feedback = (await api('POST', '/forms', {
    title: 'Visitor feedback',
    theme_color: '#0f766e',
    questions: [
      { type: 'short_text', title: 'What is your name?', required: true },
      { type: 'email', title: 'Your email address' },
      { type: 'rating', title: 'How would you rate your visit?', required: true, properties: { steps: 5, shape: 'star' } },
      { type: 'opinion_scale', title: 'How likely are you to recommend us to a friend?', properties: { min: 0, max: 10 } },
      { type: 'yes_no', title: 'Did you find what you were looking for?' },
      { type: 'long_text', title: 'What were you looking for?' },
      { type: 'multiple_choice', title: 'Which parts of the shop did you visit?', properties: { choices: ['Books', 'Music', 'Games', 'Café'].map((label) => ({ label })), allow_multiple: true } },
      { type: 'dropdown', title: 'Which country do you live in?', properties: { choices: countries.map((label) => ({ label })) } },
      { type: 'date', title: 'When did you visit?', properties: { format: 'YYYY-MM-DD' } },
      { type: 'number', title: 'How many times have you visited this year?' },
      { type: 'long_text', title: 'What could we do better?' },
      { type: 'yes_no', title: 'May we contact you about your answers?' },
    ],
  })).json;
  const qs = feedback.questions;
  const put = { ...Object.fromEntries(['title', 'theme_color'].map((k) => [k, feedback[k]])), questions: qs.map(({ order: _o, ...q }) => q) };
  put.questions[2] = { ...put.questions[2], title: `How would you rate your visit, {answer.${qs[0].id}|there}?` };
  put.questions[4] = { ...put.questions[4], logic_jumps: [{ conditions: [{ op: 'equals', value: true }], to: qs[6].id }] };
  await api('PUT', `/forms/${feedback.id}`, put);
  await api('POST', `/forms/${feedback.id}/publish`);
  const names = ['Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances'];
  for (const [i, name] of names.entries()) {
    await api('POST', `/public/forms/${feedback.slug}/responses`, {
      completed: true,
      answers: [
        { question_id: qs[0].id, value: name },
        { question_id: qs[2].id, value: 3 + (i % 3) },
        { question_id: qs[3].id, value: 6 + (i % 5) },
        { question_id: qs[4].id, value: i % 3 !== 0 },
        { question_id: qs[6].id, value: [['Books'], ['Music', 'Café'], ['Games']][i % 3] },
        { question_id: qs[7].id, value: countries[(i * 7) % 30] },
        { question_id: qs[10].id, value: ['Longer opening hours', 'More seats in the café', 'A bigger games corner', 'Nothing, it was lovely'][i % 4] },
      ],
    });
  }
  // A later change, so Versions and the Publish panel show a draft ahead of the live version.
  put.questions[10] = { ...put.questions[10], description: 'Anything at all: we read every answer.' };
  await api('PUT', `/forms/${feedback.id}`, put);

  await api('POST', '/forms', { title: 'Contact us', questions: [{ type: 'short_text', title: 'What is your name?' }, { type: 'email', title: 'Your email address' }, { type: 'long_text', title: 'How can we help?' }] });
  const event = (await api('POST', '/forms', { title: 'Summer reading club: registration', questions: [{ type: 'short_text', title: 'Your name' }, { type: 'date', title: 'Which day will you come?', properties: { format: 'YYYY-MM-DD' } }] })).json;
  await api('POST', `/forms/${event.id}/publish`);
  const contract = (await api('POST', '/forms', {
    title: 'Room rental agreement',
    questions: [
      { type: 'short_text', title: 'Your full name', required: true },
      { type: 'contract', title: 'Sign the agreement', properties: { document: 'The tenant rents the meeting room on the agreed day from 9:00 to 17:00 and leaves it as found.', signer_slots: [{ slot_number: 1, label: 'Tenant' }, { slot_number: 2, label: 'Shop manager' }], default_signing_order: 'sequential' } },
    ],
  })).json;
  const team = (await api('POST', '/teams', { name: 'Shop team' })).json;
  await api('POST', '/forms', { title: 'Job application: bookseller', team_id: team.id, questions: [{ type: 'short_text', title: 'Your name' }, { type: 'file_upload', title: 'Your CV' }] });
  await api('POST', `/teams/${team.id}/invitations`, { email: 'bob@example.com', role: 'editor' }).catch((e) => problems.push(`invitation: ${e.message}`));
  await api('POST', '/account/api-keys', { name: 'Website', scope: 'forms', monthly_limit: 10000 }).catch((e) => problems.push(`api key: ${e.message}`));

  const f = `/forms/${feedback.id}`;
  await shoot('forms', '/');
  await shoot('builder', f, { prepare: (p) => p.getByRole('button', { name: /3 · Rating/ }).click() });
  await shoot('builder-choices', f, { prepare: async (p) => { await p.getByRole('button', { name: /7 · Multiple choice/ }).click(); await p.locator('fl-choice-list').scrollIntoViewIfNeeded(); } });
  await shoot('logic', f, {
    prepare: async (p) => {
      await p.getByRole('button', { name: /5 · Yes \/ No/ }).click();
      await p.locator('fl-logic-editor').scrollIntoViewIfNeeded();
    },
  });
  await shoot('logic-map', f, {
    prepare: async (p) => {
      await p.getByRole('button', { name: /5 · Yes \/ No/ }).click();
      await p.getByRole('button', { name: 'Show the logic map' }).click();
    },
  });
  for (const tab of ['settings', 'theme', 'publish', 'versions', 'share', 'results', 'integrations']) await shoot(`builder-${tab}`, `${f}/${tab}`);
  await shoot('publish-panel', f, { prepare: (p) => p.getByRole('button', { name: /^(Publish changes|Share link|Publish)$/ }).click() });
  await shoot('signing', `/forms/${contract.id}/signing`);
  await shoot('teams', '/teams');
  await shoot('team', `/teams/${team.id}`);
  await shoot('account', '/account');
  await shoot('admin', '/admin');
  await shoot('admin-outbox', '/admin/outbox');
} finally {
  await browser.close();
  server.kill();
  rmSync(dataDir, { recursive: true, force: true });
}
for (const p of problems) console.log(`PROBLEM ${p}`);
