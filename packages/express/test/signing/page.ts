import test from '../helpers/page-test';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { downloadedBytes } from '@formloom/test-browser';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, launchBrowser, openPage } from '../helpers/browser';
import { contractForm, eventually, lazyRenderer, memoryMailer, ph, testRenderer } from '../helpers/signing';

const CONSENT = 'I agree to sign electronically and to receive the records electronically.';
/*
 * The signer's page `/s/<short_code>` in a real browser (docs/signing.md "The signer's page"), on SQLite
 * (the API underneath runs on PostgreSQL too in signing/signer.ts): a sequential contract signed by
 * two signers through the page (one typed, one drawn), the sealed PDF downloaded from the page and checked
 * with pdfsig and qpdf; a password; a decline; a phone-width page drawn on by touch; the 404 page.
 */
let browser: Browser;
let app: TestApp;
const mailer = memoryMailer();

test.before(async () => {
  await testRenderer();
  browser = await launchBrowser();
  app = await startTestApp('sqlite', { signedDocuments: lazyRenderer(), mailer });
  app.formloom.worker.start({ pollMs: 50 });
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

const THEME = { background_color: '#fefce8', text_color: '#1c1917', button_color: '#0e7490', button_text_color: '#ffffff', title_color: '#7c2d12' };

async function session(body: Record<string, unknown>, contract: Record<string, unknown> = {}) {
  const { user, form } = await contractForm(app, 'pro', contract);
  const theme = await app.api('PUT', `/forms/${form.id}/theme`, { key: user.key, body: THEME });
  if (theme.status !== 200) throw new Error(theme.text);
  const res = await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: user.key, body });
  if (res.status !== 201) throw new Error(res.text);
  const [a, b] = res.body.signer_links.map((l: any) => l.short_code as string);
  return { user, id: res.body.id as string, a: a!, b: b! };
}

const run = promisify(execFile);
async function pdfTools(pdf: Buffer) {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-page-pdf-'));
  try {
    const file = join(dir, 'signed.pdf');
    writeFileSync(file, pdf);
    const sig = (await run('pdfsig', [file])).stdout;
    // qpdf exits 2 on errors and 3 on warnings: a clean file resolves.
    const qpdf = await run('qpdf', ['--check', file]).then((r) => ({ ok: true, out: r.stdout }), (e) => ({ ok: false, out: String(e.stdout) }));
    const text = (await run('pdftotext', [file, '-'])).stdout;
    return { sig, qpdf, text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const heading = (page: Page, name: string | RegExp) => page.getByRole('heading', { name, level: 2 });
const alert = (page: Page) => page.locator('.fls-error:not(:empty)');

/** Draws a zigzag on the canvas with the mouse (pointer events). */
async function drawWithMouse(page: Page, canvas: Locator) {
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.mouse.down();
  for (let i = 1; i <= 12; i++) await page.mouse.move(box.x + 20 + i * ((box.width - 40) / 12), box.y + box.height * (i % 2 ? 0.25 : 0.75), { steps: 3 });
  await page.mouse.up();
}

test('two signers sign a sequential contract through the page (typed, then drawn); the sealed PDF downloads from the page and verifies', async (t) => {
  t.timeout(180_000);
  const { user, id, a, b } = await session({ signing_order: 'sequential', copy_mode: 'always', signers: [{ slot_number: 1, first_name: 'Tom', last_name: 'Tenant' }] });
  const second = await openPage(browser);
  const first = await openPage(browser);
  try {
    // The landlord comes first: not their turn, and the page says who must sign before.
    await second.page.goto(`${app.url}/s/${b}`);
    await heading(second.page, 'Not your turn yet').waitFor();
    t.regex(await second.page.locator('.fls-notice').innerText(), /Tenant must sign before you/);
    t.is(await second.page.getByRole('button', { name: 'Sign', exact: true }).count(), 0);
    t.is(await second.page.getByRole('heading', { name: 'Lease', level: 1 }).count(), 1, "the form's title");
    t.is(await second.page.locator('.fls-contract strong').innerText(), 'tenant', 'the contract, markdown rendered');

    // The theme: colours from the form.
    const colours = await second.page.evaluate(() => {
      const g = (globalThis as any).getComputedStyle;
      const d = (globalThis as any).document;
      return { bg: g(d.body).backgroundColor, text: g(d.body).color, title: g(d.querySelector('h1')).color, button: g(d.querySelector('.fls-button')).backgroundColor };
    });
    t.deepEqual(colours, { bg: 'rgb(254, 252, 232)', text: 'rgb(28, 25, 23)', title: 'rgb(124, 45, 18)', button: 'rgb(14, 116, 144)' });

    // The tenant signs with a typed name (the names known from the session are filled in).
    await first.page.goto(`${app.url}/s/${a}`);
    await heading(first.page, 'Sign as Tenant').waitFor();
    t.is(await first.page.getByLabel('First name').inputValue(), 'Tom');
    // The typed signature starts empty: the signer writes it; it shows on a signature line as typed.
    t.is(await first.page.getByLabel('Type your full name').inputValue(), '');
    await first.page.getByRole('button', { name: 'Sign', exact: true }).click();
    t.is(await alert(first.page).innerText(), 'Type your name to sign');
    t.is(await first.page.getByLabel('Type your full name').getAttribute('aria-invalid'), 'true');
    await first.page.getByLabel('Type your full name').fill('Tom Tenant');
    t.is(await first.page.locator('.fls-signature-line').innerText(), 'Tom Tenant');
    t.regex(await first.page.locator('.fls-signature-line').evaluate((e) => (globalThis as any).getComputedStyle(e).fontFamily), /Formloom Signature/);
    t.true(await first.page.evaluate(async () => { await (globalThis as any).document.fonts.ready; return (globalThis as any).document.fonts.check('16px "Formloom Signature"', 'Tom'); }), 'the signature face loaded');
    // The e-sign consent is explicit: no signature without it.
    await first.page.getByRole('button', { name: 'Sign', exact: true }).click();
    t.is(await alert(first.page).innerText(), 'Tick the box to agree to sign electronically');
    await first.page.getByLabel(CONSENT).check();
    await first.page.getByRole('button', { name: 'Sign', exact: true }).click();
    await heading(first.page, 'You have signed').waitFor();
    // Who is still to sign, and the contract to read again.
    t.regex(await first.page.locator('.fls-still').innerText(), /Still to sign:\s*Landlord/);
    await first.page.getByText('Read the contract again').click();
    await first.page.locator('.fls-reread .fls-contract').first().waitFor();
    t.regex(await first.page.locator('.fls-reread').innerText(), /tenant/i);

    // Now the landlord's turn: they draw.
    await second.page.getByRole('button', { name: 'Check again' }).click();
    await heading(second.page, 'Sign as Landlord').waitFor();
    t.regex(await second.page.locator('.fls-signers').innerText(), /Tenant Tom Tenant \(signed\)[\s\S]*Landlord\s+\(you\)/);
    await second.page.getByLabel('First name').fill('Lena');
    await second.page.getByLabel('Last name').fill('Landlord');
    await second.page.getByText('Draw', { exact: true }).click();
    await second.page.getByLabel(CONSENT).check();
    await second.page.getByRole('button', { name: 'Sign', exact: true }).click();
    t.is(await alert(second.page).innerText(), 'Draw your signature in the box, or choose Type', 'an empty pad is not a signature');
    await drawWithMouse(second.page, second.page.locator('canvas'));
    await second.page.getByRole('button', { name: 'Sign', exact: true }).click();
    await heading(second.page, 'Everyone has signed').waitFor();

    // The seal runs through the outbox; the page looks again until the download is there.
    const link = second.page.getByRole('link', { name: /Download "Lease agreement" \(signed PDF\)/ });
    await link.waitFor({ timeout: 60_000 });
    const href = (await link.getAttribute('href'))!;
    const res = await fetch(new URL(href, app.url));
    t.is(res.status, 200);
    t.is(res.headers.get('content-type'), 'application/pdf');
    const pdf = Buffer.from(await res.arrayBuffer());
    const docs = (await app.api('GET', `/signing-sessions/${id}/documents`, { key: user.key })).body.documents;
    t.is(docs.length, 1);
    t.is(docs[0].document_hash, `sha256:${createHash('sha256').update(pdf).digest('hex')}`, 'the very bytes the API stored');
    const tools = await pdfTools(pdf);
    t.regex(tools.sig, /Signature Validation: Signature is Valid\./);
    t.regex(tools.sig, /Total document signed/);
    t.notRegex(tools.sig, /Digest Mismatch/);
    t.true(tools.qpdf.ok, tools.qpdf.out);
    t.regex(tools.qpdf.out, /No syntax or stream encoding errors found/);
    t.regex(tools.text, /Tom Tenant/);
    t.regex(tools.text, /Lena Landlord/);

    const slots = await app.raw(`SELECT slot_number, signature FROM signing_slots WHERE session_id = ${ph(app, 1)} ORDER BY slot_number`, [id]);
    const sigs = slots.map((s: any) => JSON.parse(s.signature));
    t.deepEqual(sigs[0], { type: 'typed', value: 'Tom Tenant' });
    t.is(sigs[1].type, 'drawn');
    t.regex(sigs[1].value, /^data:image\/png;base64,/);

    // The first signer, coming back, gets the download too.
    await first.page.reload();
    await heading(first.page, 'Everyone has signed').waitFor();
    t.is(await first.page.getByRole('link', { name: /Download/ }).count(), 1);
    t.deepEqual([...first.errors, ...second.errors], []);
  } finally {
    await first.close();
    await second.close();
  }
});

test('a password-protected session: a wrong password is refused on the page, the right one opens the contract (keyboard only)', async (t) => {
  t.timeout(120_000);
  const { user, id, a, b } = await session({ password: 'correct horse', signing_order: 'any', copy_mode: 'always' });
  const { page, errors, close } = await openPage(browser);
  try {
    await page.goto(`${app.url}/s/${a}`);
    await heading(page, 'Enter the password').waitFor();
    t.true(await page.getByLabel('Password').evaluate((el) => el === (globalThis as any).document.activeElement), 'the field has focus');
    t.deepEqual(await axeViolations(page), []);
    await page.keyboard.type('wrong one');
    await page.keyboard.press('Enter');
    await alert(page).waitFor();
    t.is(await alert(page).innerText(), 'Wrong password: try again');
    t.is(await alert(page).getAttribute('role'), 'alert');
    t.is(await page.getByLabel('Password').getAttribute('aria-invalid'), 'true');
    await page.keyboard.type('correct horse');
    await page.keyboard.press('Enter');
    await heading(page, 'Sign as Tenant').waitFor();
    t.is(await page.locator('.fls-contract h3').innerText(), 'Lease');
    // Keyboard only: Tab to the typed name, type, Enter submits.
    await page.getByLabel('Type your full name').focus();
    await page.keyboard.type('Tina Tenant');
    await page.keyboard.press('Enter');
    // The consent is missing: the error moves focus to its box; Space ticks it, Tab reaches Sign.
    await alert(page).filter({ hasText: 'Tick the box' }).waitFor();
    await page.keyboard.press('Space');
    t.true(await page.getByLabel(CONSENT).isChecked());
    await page.keyboard.press('Tab');
    t.is(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent), 'Sign');
    await page.keyboard.press('Enter');
    await heading(page, 'You have signed').waitFor();
    // The access token outlives a reload (the tab's session storage): no second password prompt.
    await page.reload();
    await heading(page, 'You have signed').waitFor();

    // The other party signs (through the API); the sealed copy then downloads through the page, which
    // must send the access token (a plain link cannot): the browser saves exactly the stored bytes.
    const token = (await app.api('POST', `/s/${b}/verify-password`, { body: { password: 'correct horse' } })).body.access_token;
    t.is((await app.api('POST', `/s/${b}/sign`, { headers: { 'x-access-token': token }, body: { signature: { type: 'typed', value: 'Lou Landlord' } } })).status, 200);
    await page.getByRole('button', { name: 'Check again' }).click();
    const link = page.getByRole('link', { name: /Download "Lease agreement"/ });
    await link.waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const saved = await downloadedBytes(download);
    const docs = (await app.api('GET', `/signing-sessions/${id}/documents`, { key: user.key })).body.documents;
    t.is(docs[0].document_hash, `sha256:${createHash('sha256').update(saved).digest('hex')}`);
    t.is(download.suggestedFilename(), 'Lease agreement.pdf');
    t.deepEqual(await axeViolations(page), [], 'the outcome screen');
    t.deepEqual(errors, []);
    // Another browser (no token): the sealed copies are behind the password too.
    const other = await openPage(browser);
    try {
      await other.page.goto(`${app.url}/s/${a}`);
      await heading(other.page, 'Enter the password').waitFor();
      await other.page.getByLabel('Password').fill('correct horse');
      await other.page.keyboard.press('Enter');
      await heading(other.page, 'Everyone has signed').waitFor();
      t.is(await other.page.getByRole('link', { name: /Download/ }).count(), 1);
      t.deepEqual(other.errors, []);
    } finally {
      await other.close();
    }
  } finally {
    await close();
  }
});

const RICH = [
  '# Terms', '', 'Intro with *emphasis*, `code` and <script>alert(1)</script> as text.', '',
  '1. Rent', '   - due monthly', '   - in euros', '2. Deposit', '', '> Quoted clause', '', '---', '', 'Last line.',
].join('\n');

test('decline with a reason: the session is declined, both pages say so (and the contract markdown renders as elements only)', async (t) => {
  t.timeout(120_000);
  const { user, id, a, b } = await session({}, { document: RICH });
  const { page, errors, close } = await openPage(browser);
  try {
    await page.goto(`${app.url}/s/${b}`);
    await heading(page, 'Sign as Landlord').waitFor();
    const contract = page.locator('.fls-contract');
    t.is(await contract.locator('h3').innerText(), 'Terms');
    t.is(await contract.locator('em').innerText(), 'emphasis');
    t.is(await contract.locator('script').count(), 0, 'raw HTML is never markup');
    t.regex(await contract.locator('p').first().innerText(), /<script>alert\(1\)<\/script> as text/);
    t.deepEqual(await contract.locator('ol > li > ul > li').allInnerTexts(), ['due monthly', 'in euros']);
    t.is(await contract.locator('ol > li').count(), 2);
    t.is(await contract.locator('blockquote').innerText(), 'Quoted clause');
    t.is(await contract.locator('hr').count(), 1);
    await page.getByRole('button', { name: 'Decline to sign…' }).click();
    await page.getByLabel(/Why do you decline/).fill('The rent is too high');
    await page.getByRole('button', { name: 'Decline', exact: true }).click();
    await heading(page, 'You declined to sign').waitFor();
    t.deepEqual(await axeViolations(page), []);
    t.is((await app.api('GET', `/signing-sessions/${id}`, { key: user.key })).body.status, 'declined');
    const [slot] = await app.raw(`SELECT status, decline_reason FROM signing_slots WHERE session_id = ${ph(app, 1)} AND slot_number = 2`, [id]);
    t.deepEqual({ ...slot }, { status: 'declined', decline_reason: 'The rent is too high' });
    await page.goto(`${app.url}/s/${a}`);
    await heading(page, 'This contract was declined').waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('email verification on the page: the code is mailed, a wrong code is refused, the right one signs', async (t) => {
  t.timeout(120_000);
  const email = 'verify-page@example.com';
  const { a } = await session({ require_email_verification: true, signers: [{ slot_number: 1, email }] });
  const { page, errors, close } = await openPage(browser);
  try {
    await page.goto(`${app.url}/s/${a}`);
    await page.getByRole('group', { name: 'Confirm your email address' }).waitFor();
    await page.getByLabel('Type your full name').fill('Vera Verified');
    await page.getByLabel(CONSENT).check();
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    t.regex(await alert(page).innerText(), /Enter the 6-digit code/);
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByText(`We sent a code to ${email}`).waitFor();
    const mail = await eventually(async () => mailer.sent.find((m) => m.to === email && /code/.test(m.subject)));
    const code = /(\d{6})/.exec(mail.subject)![1]!;
    const codeField = page.getByLabel('6-digit code from the email');
    await codeField.fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await alert(page).filter({ hasText: /wrong or expired code/ }).waitFor();
    t.is(await codeField.getAttribute('aria-invalid'), 'true');
    await codeField.fill(code);
    await page.getByRole('button', { name: 'Sign', exact: true }).click();
    await heading(page, 'You have signed').waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a voided session: the page says so and offers no signing', async (t) => {
  const { user, id, a } = await session({});
  t.is((await app.api('POST', `/signing-sessions/${id}/void`, { key: user.key, body: { reason: 'Replaced' } })).status, 200);
  const { page, errors, close } = await openPage(browser);
  try {
    await page.goto(`${app.url}/s/${a}`);
    await heading(page, 'This contract was cancelled').waitFor();
    t.is(await page.getByRole('button', { name: 'Sign', exact: true }).count(), 0);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('at 360 px on a touch screen: no horizontal scroll, a signature drawn by touch, and axe finds nothing', async (t) => {
  t.timeout(120_000);
  const { id, a } = await session({ copy_mode: 'ask' });
  const context = await browser.newContext({ viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    await page.goto(`${app.url}/s/${a}`);
    await heading(page, 'Sign as Tenant').waitFor();
    const overflow = () => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth);
    t.is(await overflow(), 0);
    t.deepEqual(await axeViolations(page), []);

    await page.getByText('Draw', { exact: true }).tap();
    t.is(await overflow(), 0, 'the pad fits the width');
    await page.locator('canvas').scrollIntoViewIfNeeded();
    const box = (await page.locator('canvas').boundingBox())!;
    // Real touch input through the DevTools protocol: the browser turns it into pointer events.
    const cdp = await context.newCDPSession(page);
    const at = (i: number) => [{ x: box.x + 10 + i * ((box.width - 20) / 10), y: box.y + box.height * (i % 2 ? 0.3 : 0.7) }];
    // Timestamps a finger would give (60 Hz, still at the end): instantaneous events read as a fling,
    // and Chrome swallows the next tap as the one that stops it.
    const t0 = Date.now() / 1000;
    const touch = (type: string, i: number, step: number) => cdp.send('Input.dispatchTouchEvent', { type: type as 'touchMove', touchPoints: type === 'touchEnd' ? [] : at(i), timestamp: t0 + step / 60 });
    await touch('touchStart', 0, 0);
    for (let i = 1; i <= 10; i++) await touch('touchMove', i, i);
    for (let i = 11; i <= 20; i++) await touch('touchMove', 10, i);
    await touch('touchEnd', 10, 21);
    t.is(await page.evaluate(() => (globalThis as any).scrollX), 0);
    await page.getByText('Email me a copy of the signed document').tap();
    await page.getByText(CONSENT).tap();
    await page.getByRole('button', { name: 'Sign', exact: true }).tap();
    await heading(page, 'You have signed').waitFor();
    const [slot] = await app.raw(`SELECT signature, send_copy FROM signing_slots WHERE session_id = ${ph(app, 1)} AND slot_number = 1`, [id]);
    t.is(JSON.parse(slot.signature).type, 'drawn');
    t.truthy(slot.send_copy);
    t.is(await overflow(), 0);
    t.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test('an unknown code is a plain 404 page with the pages\' security headers; the page itself carries them too', async (t) => {
  const { a } = await session({});
  const missing = await fetch(`${app.url}/s/no-such-code`);
  t.is(missing.status, 404);
  const body = await missing.text();
  t.regex(body, /This signing link is not valid/);
  t.notRegex(body, /at .*\.(js|ts):\d+/, 'no stack trace');
  t.regex(missing.headers.get('content-security-policy') ?? '', /default-src 'none'/);
  const ok = await fetch(`${app.url}/s/${a}`);
  t.is(ok.status, 200);
  const csp = ok.headers.get('content-security-policy') ?? '';
  t.regex(csp, /script-src 'self'/);
  t.regex(csp, /frame-ancestors/);
  t.is(ok.headers.get('x-content-type-options'), 'nosniff');
  t.is(ok.headers.get('referrer-policy'), 'no-referrer');
  t.is(ok.headers.get('cache-control'), 'no-store');
  const html = await ok.text();
  t.notRegex(html, /<script>/, 'no inline script');
  const css = await fetch(`${app.url}/formloom/assets/signing.css`);
  t.is(css.status, 200);
  t.regex(css.headers.get('content-type') ?? '', /text\/css/);
  t.is((await fetch(`${app.url}/s/${'%00'}`)).status, 400);
});
