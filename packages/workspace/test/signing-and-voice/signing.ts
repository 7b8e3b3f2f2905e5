import test from '../helpers/bounded-test';
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';
import { downloadedBytes } from '@formloom/test-browser';
import { startSigningApp, type SigningTestApp } from '../helpers/signing-app';
import { axeViolations, openPage, tabTo, shot, withClipboard } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared';

/*
 * The builder's Signing tab (docs/workspace.md, "Signing"): an owner sends a contract for signature and follows
 * it to the sealed PDFs; resend, void, the audit trail's chain check (and a chain changed behind its back);
 * keyboard only at 390 px; a viewer, a plan without contracts, a refused save, a form deleted in another tab.
 * FORMLOOM_SHOTS=<dir> also saves screenshots there.
 */

let app: SigningTestApp;
let browser: Browser;
test.before(async () => {
  app = await startSigningApp('sqlite');
  browser = await sharedBrowser();
});
test.after.always(async () => {
  await app?.close();
});

/** True when nothing sticks out sideways at a 390 px width. */
const fits = (page: Page) => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 392);

test('an owner creates a session, copies and resends links, follows the signatures to the sealed PDFs and a verified audit trail', async (t) => {
  t.timeout(240_000);
  const owner = await app.user('pro');
  const form = await app.contractForm(owner.key);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    // The page's timers on a clock the test moves (time still flows by itself): the open session's 5 s look
    // for signatures is reached by moving the clock, not by waiting for it.
    await page.clock.install();
    await page.goto(`${app.url}/forms/${form.id}`);
    await page.getByRole('link', { name: 'Signing', exact: true }).click();
    await page.getByText('No signing sessions yet.').waitFor();
    t.deepEqual(await axeViolations(page), [], 'axe, empty list');
    await shot(page, 'signing-empty');

    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New signing session' });
    await dialog.getByRole('group', { name: 'Tenant (signer 1)' }).getByLabel('First name').fill('Tara');
    await dialog.getByRole('group', { name: 'Tenant (signer 1)' }).getByLabel('Last name').fill('Tenant');
    await dialog.getByRole('group', { name: 'Tenant (signer 1)' }).getByLabel('Email').fill('tara@example.com');
    await dialog.getByRole('group', { name: 'Landlord (signer 2)' }).getByLabel('First name').fill('Lou');
    await dialog.getByLabel('Signing order').selectOption('sequential');
    await dialog.getByLabel('Expires after (days)').fill('14');
    await dialog.getByLabel('Signed copies').selectOption('always');
    await dialog.getByLabel('Notify these addresses').fill('legal@example.com');
    await dialog.getByRole('checkbox', { name: 'Everyone signed' }).check();
    await dialog.getByRole('checkbox', { name: 'Email each signer their link now' }).check();
    await dialog.getByLabel('Email text (optional)').fill('Hello {slot_firstName}, please sign: {slot_link}');
    t.deepEqual(await axeViolations(page), [], 'axe, dialog');
    await shot(page, 'signing-new');
    await dialog.getByRole('button', { name: 'Create session' }).click();

    await page.getByText('Session created.').waitFor();
    const listed = (await app.api('GET', `/forms/${form.id}/signing-sessions`, { key: owner.key })).body.sessions;
    t.is(listed.length, 1);
    const session = (await app.api('GET', `/signing-sessions/${listed[0].id}`, { key: owner.key })).body;
    t.like(session, { signing_order: 'sequential', copy_mode: 'always', status: 'active' });
    t.like(session.signer_links[0], { slot_label: 'Tenant', first_name: 'Tara', last_name: 'Tenant', email: 'tara@example.com' });
    t.like(session.signer_links[1], { slot_label: 'Landlord', first_name: 'Lou', email: null });
    t.true(page.url().endsWith(`/forms/${form.id}/signing/${session.id}`));
    const tenantLink = page.getByLabel('Signing link for Tenant');
    t.is(await tenantLink.inputValue(), session.signer_links[0].signing_url);
    t.is(await page.getByLabel('Signing link for Landlord').inputValue(), session.signer_links[1].signing_url);
    await app.mailed((m) => m.to === 'tara@example.com' && m.text.includes(`Hello Tara, please sign: ${session.signer_links[0].signing_url}`));

    // The clipboard is the browser's: held from the copy to the read (helpers/browser.ts).
    const copied = await withClipboard(async () => {
      await page.getByRole('button', { name: 'Copy link for Tenant' }).click();
      await page.getByRole('status').filter({ hasText: 'Link for Tenant copied.' }).waitFor();
      return page.evaluate(() => (globalThis as any).navigator.clipboard.readText());
    });
    t.is(copied, session.signer_links[0].signing_url);
    // Resend only where the API allows it: a pending signer with an email.
    t.is(await page.getByRole('button', { name: 'Resend email to Landlord' }).count(), 0);
    await page.getByRole('button', { name: 'Resend email to Tenant' }).click();
    await page.getByRole('status').filter({ hasText: 'Signing request sent again to tara@example.com.' }).waitFor();
    await app.mailed((m) => m.to === 'tara@example.com' && m.subject.startsWith('Please sign'), 2);
    t.deepEqual(await axeViolations(page), [], 'axe, session created');
    await shot(page, 'signing-created');

    // The signers sign through their links; the open page follows by itself.
    t.is((await app.sign(session.signer_links[0].short_code, 'Tara Tenant')).status, 200);
    t.is((await app.sign(session.signer_links[1].short_code, 'Lou Landlord')).status, 200);
    const docs = await app.sealed(session.id, owner.key);
    await page.clock.fastForward(5_000);
    await page.getByRole('link', { name: 'Download PDF: Lease agreement' }).waitFor();
    await page.getByRole('heading', { name: /Signing session Fully signed/ }).waitFor();
    t.deepEqual(await page.locator('li.signer .badge').allTextContents(), ['Signed', 'Signed'], 'both signers show as signed');
    t.is(await page.getByRole('button', { name: 'Void session…' }).count(), 0, 'a completed session cannot be voided');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PDF: Lease agreement' }).click()]);
    const pdf = await downloadedBytes(download);
    t.is(`sha256:${createHash('sha256').update(pdf).digest('hex')}`, docs[0].document_hash, 'the download is the sealed PDF, byte for byte');

    // Completion still appends system entries (the notifications) after the session turns fully signed: the
    // trail is compared once every outbox item is sent (nothing left that could append), on a fresh load.
    await waitFor(async () => Number((await app.raw(`SELECT COUNT(*) AS n FROM outbox WHERE status = 'pending'`))[0].n) === 0, { what: 'every notification sent' });
    const audit = (await app.api('GET', `/signing-sessions/${session.id}/audit`, { key: owner.key })).body.entries;
    await page.reload();
    await page.getByText(`all ${audit.length} entries hash and link correctly`).waitFor();
    await page.getByText(audit[audit.length - 1].hash).waitFor();
    await page.getByRole('cell', { name: 'Tara Tenant tara@example.com' }).waitFor();
    t.deepEqual(await axeViolations(page), [], 'axe, fully signed');
    await shot(page, 'signing-session');

    // Back to the list, its filter and its pages.
    await page.getByRole('link', { name: '← All sessions' }).click();
    await page.getByRole('row', { name: /Fully signed 2 of 2 In order/ }).waitFor();
    for (let i = 0; i < 20; i++) t.is((await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: owner.key, body: {} })).status, 201);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Page 1 of 2 · 21 sessions').waitFor();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2 of 2 · 21 sessions').waitFor();
    await shot(page, 'signing-list');
    t.is(await page.getByRole('row', { name: /Fully signed/ }).count(), 1, 'the oldest session is on page 2');
    await page.getByLabel('Status').selectOption('fully_signed');
    await page.getByText('Page 1 of 1 · 1 session').waitFor();
    await page.getByLabel('Status').selectOption('declined');
    await page.getByText('No declined sessions.').waitFor();
    t.deepEqual(await axeViolations(page), [], 'axe, list');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('voiding asks for a reason, and an audit trail changed behind the API is shown as broken', async (t) => {
  t.timeout(200_000);
  const owner = await app.user('business');
  const form = await app.contractForm(owner.key);
  const session = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: owner.key, body: { signers: [{ slot_number: 1, email: 'tim@example.com' }] } })).body;
  t.is((await app.sign(session.signer_links[0].short_code, 'Tim Tenant')).status, 200);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${form.id}/signing/${session.id}`);
    await page.getByRole('heading', { name: /Signing session Active/ }).waitFor();
    await page.getByRole('button', { name: 'Void session…' }).click();
    await page.getByRole('dialog', { name: 'Void this session?' }).getByRole('button', { name: 'Cancel' }).click();
    t.is((await app.api('GET', `/signing-sessions/${session.id}`, { key: owner.key })).body.status, 'active', 'cancel voids nothing');
    await page.getByRole('button', { name: 'Void session…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Void this session?' });
    await dialog.getByLabel(/Reason/).fill('Wrong rent amount');
    t.deepEqual(await axeViolations(page), [], 'axe, void dialog');
    await dialog.getByRole('button', { name: 'Void session' }).click();
    await page.getByRole('heading', { name: /Signing session Voided/ }).waitFor();
    await page.getByText(/: Wrong rent amount$/).waitFor();
    t.like((await app.api('GET', `/signing-sessions/${session.id}`, { key: owner.key })).body, { status: 'voided', void_reason: 'Wrong rent amount' });
    await page.getByText('(watermarked VOIDED)').waitFor();
    await page.getByText(/Chain verified/).waitFor();
    // Issue 34 (17): the head printed on the PDF (before sealing) and the current head, each named for what it is.
    await page.getByRole('button', { name: 'Refresh' }).click();
    const trail = (await app.api('GET', `/signing-sessions/${session.id}/audit`, { key: owner.key })).body.entries as Array<{ action: string; seq: number; hash: string; prev_hash: string }>;
    const sealedEntry = trail.find((e) => e.action === 'document_sealed')!;
    await page.getByText(`Current head (entry ${trail[trail.length - 1]!.seq}, the newest; on no PDF): ${trail[trail.length - 1]!.hash}`).waitFor();
    await page.getByText(new RegExp(`Printed on the VOIDED PDF doc_\\w+ as "Audit head at sealing" \\(entry ${sealedEntry.seq - 1}, before it was sealed\\): ${sealedEntry.prev_hash}`)).waitFor();
    t.not(sealedEntry.prev_hash, trail[trail.length - 1]!.hash);

    // Someone edits an entry in the database: the browser's own check finds it.
    await app.raw('UPDATE signing_audit_entries SET ip_address = ? WHERE session_id = ? AND seq = 2', ['203.0.113.9', session.id]);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('alert').getByText(/Chain broken at entry 2/).waitFor();
    t.deepEqual(await axeViolations(page), [], 'axe, broken chain');
    await shot(page, 'signing-broken-chain');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('at 390 px with the keyboard alone an owner creates a session and copies a link', async (t) => {
  t.timeout(200_000);
  const owner = await app.user('pro');
  const form = await app.contractForm(owner.key);
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width: 390 });
  try {
    await page.goto(`${app.url}/forms/${form.id}/signing`);
    await page.getByText('No signing sessions yet.').waitFor();
    t.true(await fits(page), 'the list fits 390 px');
    await tabTo(page, (el) => el.text === 'New session');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'New signing session' }).waitFor();
    // The dialog starts on its first field: the first signer's first name.
    await page.keyboard.type('Kim');
    await tabTo(page, (el) => el.label === 'Email');
    await page.keyboard.type('kim@example.com');
    t.true(await fits(page), 'the dialog fits 390 px');
    await shot(page, 'signing-new-phone');
    await tabTo(page, (el) => el.text === 'Create session');
    await page.keyboard.press('Enter');
    await page.getByText('Session created.').waitFor();
    const [listed] = (await app.api('GET', `/forms/${form.id}/signing-sessions`, { key: owner.key })).body.sessions;
    const session = (await app.api('GET', `/signing-sessions/${listed.id}`, { key: owner.key })).body;
    t.like(session.signer_links[0], { first_name: 'Kim', email: 'kim@example.com' });
    await tabTo(page, (el) => el.label === 'Copy link for Tenant');
    // The copy goes into the browser's one clipboard: not while another test holds it (helpers/browser.ts).
    await withClipboard(async () => {
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Link for Tenant copied.' }).waitFor();
    });
    t.true(await fits(page), 'the session page fits 390 px');
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'signing-session-phone');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a viewer reads sessions without controls; a refused save and a plan without contracts say why', async (t) => {
  t.timeout(200_000);
  const owner = await app.user('enterprise');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Lettings' } })).body;
  const viewer = await app.user();
  const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: viewer.email, role: 'viewer' } });
  t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: viewer.key })).status, 200);
  const form = await app.contractForm(owner.key, { team_id: team.id });
  const session = (await app.api('POST', `/forms/${form.id}/signing-sessions`, { key: owner.key, body: { signers: [{ slot_number: 1, email: 'vic@example.com' }] } })).body;

  const v = await openPage(browser, { cookie: viewer.cookie });
  try {
    await v.page.goto(`${app.url}/forms/${form.id}/signing`);
    await v.page.getByRole('row', { name: /Active 0 of 2/ }).getByRole('link').click();
    await v.page.getByRole('heading', { name: /Signing session Active/ }).waitFor();
    await v.page.getByLabel('Signing link for Tenant').waitFor();
    for (const name of [/Void session/, /Resend/, /New session/]) t.is(await v.page.getByRole('button', { name }).count(), 0, `no ${name} button`);
    t.deepEqual(await axeViolations(v.page), []);
    t.deepEqual(v.errors, []);
  } finally {
    await v.close();
  }
  t.is((await app.api('POST', `/signing-sessions/${session.id}/void`, { key: viewer.key, body: { reason: 'x' } })).status, 403, 'the API forbids what the screen hides');

  const o = await openPage(browser, { cookie: owner.cookie });
  try {
    // A refused save: the API's message, and nothing made.
    await o.page.goto(`${app.url}/forms/${form.id}/signing`);
    await o.page.getByRole('button', { name: 'New session' }).click();
    await o.page.getByLabel('Notify these addresses').fill('not-an-address');
    await o.page.getByRole('button', { name: 'Create session' }).click();
    await o.page.getByRole('dialog').getByRole('alert').getByText(/notify_emails/).waitFor();
    t.is((await app.api('GET', `/forms/${form.id}/signing-sessions`, { key: owner.key })).body.total, 1);
    await shot(o.page, 'signing-refused');
    await o.page.keyboard.press('Escape');

    // Open in one tab, deleted in another.
    t.is((await app.api('DELETE', `/forms/${form.id}`, { key: owner.key })).status, 200);
    await o.page.getByRole('button', { name: 'Refresh' }).click();
    await o.page.getByRole('alert').getByText(/does not exist any more/).waitFor();
    await o.page.goto(`${app.url}/forms/${form.id}/signing/${session.id}`);
    await o.page.getByText(/This form cannot be opened|does not exist/).first().waitFor();
  } finally {
    await o.close();
  }

  const free = await app.user('free');
  const freeForm = await app.contractForm(free.key);
  const plain = (await app.api('POST', '/forms', { key: free.key, body: { title: 'No contract', questions: [{ type: 'yes_no', title: 'Ok?' }] } })).body;
  const f = await openPage(browser, { cookie: free.cookie });
  try {
    await f.page.goto(`${app.url}/forms/${plain.id}`);
    await f.page.getByRole('link', { name: 'Results', exact: true }).waitFor();
    t.is(await f.page.getByRole('link', { name: 'Signing', exact: true }).count(), 0, 'no Signing tab without a contract question');
    await f.page.goto(`${app.url}/forms/${freeForm.id}/signing`);
    await f.page.getByRole('button', { name: 'New session' }).click();
    await f.page.getByRole('button', { name: 'Create session' }).click();
    await f.page.getByRole('dialog').getByRole('alert').getByText('E-signature contracts need the Pro plan or higher').waitFor();
    await f.page.keyboard.press('Escape');
    await f.page.getByRole('heading', { name: 'Sessions cannot be created' }).waitFor();
    t.is(await f.page.getByRole('button', { name: 'New session' }).count(), 0, 'no New session once the plan refused it');
    t.deepEqual(await axeViolations(f.page), []);
    await shot(f.page, 'signing-plan');
    t.deepEqual(f.errors, []);
  } finally {
    await f.close();
  }
});
