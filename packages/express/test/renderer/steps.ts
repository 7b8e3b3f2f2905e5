import test from '../helpers/page-test';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, launchBrowser, openPage } from '../helpers/browser';
import { memoryMailer } from '../helpers/signing';

/*
 * An email step and a data node on the respondent's page (docs/logic.md), at 390 px by keyboard: the mail goes
 * once, the page says it is looking the respondent up while the owner's source (a local HTTP server) answers,
 * the mapped hidden field is recalled in the next question (also after a reload, which resumes the same response
 * without running the steps again), and the response completes. axe 0 on the waiting step.
 */
let browser: Browser;
let app: TestApp;
let source: Server;
// The source answers a respondent's lookup when the test opens that address's gate (after it has seen the page
// wait for it); an address without a gate is answered at once.
const gates = new Map<string, { open: () => void; opened: Promise<void> }>();
function gate(email: string) {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  gates.set(email, { open, opened });
  return open;
}
const mailer = memoryMailer();
test.before(async () => {
  source = createServer((req, res) => {
    const email = new URL(req.url ?? '/', 'http://x').searchParams.get('email') ?? '';
    void (gates.get(email)?.opened ?? Promise.resolve()).then(() =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ tier: email.startsWith('ann') ? 'Gold' : 'Basic' })),
    );
  });
  await new Promise<void>((r) => source.listen(0, '127.0.0.1', () => r()));
  [browser, app] = await Promise.all([launchBrowser(), startTestApp('sqlite', { mailer, allowPrivateWebhooks: true })]);
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
  source?.close();
});

test('a respondent passes an email step and a data node: mailed once, looked up, recalled, completed', async (t) => {
  t.timeout(120_000);
  app.formloom.worker.start({ pollMs: 50 });
  const u = await app.user('pro');
  const url = `http://127.0.0.1:${(source.address() as AddressInfo).port}/tiers`;
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Support', published: true, hidden_fields: ['tier', 'status'],
      questions: [
        { id: 'email', type: 'email', title: 'Your email', required: true },
        { type: 'email_step', title: 'Confirmation', properties: { recipient: '{answer.email}', sender_name: 'Support', subject: 'We got your request', body: 'We will write to {answer.email}.' } },
        { type: 'data', title: 'Your account', properties: { source: url, timeout_ms: 10_000, params: { email: '{answer.email}' }, mapping: { 'hidden.tier': '$.tier' }, status_field: 'status' }, logic_jumps: [{ conditions: [{ field: 'hidden:status', op: 'equals', value: 'failed' }], to: 'sorry' }] },
        { type: 'short_text', title: 'What can we do for you, {hidden.tier|dear} customer?', required: true, logic_jumps: [{ to: 'end' }] },
        { id: 'sorry', type: 'short_text', title: 'We could not find your account. What is your plan?' },
      ],
    },
  });
  t.true(created.body.published, JSON.stringify(created.body.publish_error));
  const releaseAnn = gate('ann@example.com');
  const { page, errors, close } = await openPage(browser, { width: 390 });
  try {
    await page.goto(`${app.url}/f/${created.body.slug}`);
    const form = page.locator('formloom-form');
    await form.getByRole('heading', { name: 'Your email' }).waitFor();
    await page.keyboard.type('ann@example.com');
    await page.keyboard.press('Enter');
    await form.getByRole('status').filter({ hasText: 'Looking up your details…' }).waitFor();
    // Answered as soon as the wait is seen: the lookup's deadline (10 s) is never what this part tests.
    releaseAnn();
    await form.getByRole('heading', { name: 'What can we do for you, Gold customer?' }).waitFor();
    // A reload goes on with the same response, after the steps: nothing is mailed or looked up again.
    await page.reload();
    await form.getByRole('heading', { name: 'What can we do for you, Gold customer?' }).waitFor();
    await page.keyboard.type('Reset my password');
    await page.keyboard.press('Enter');
    const done = await waitFor(async () => {
      const r = await app.api('GET', `/forms/${created.body.id}/responses`, { key: u.key });
      return r.body.total === 1 && r.body.responses[0].completed_at && r.body.responses[0];
    }, { what: 'the completed response' });
    t.is(done.answers.length, 2);
    await waitFor(() => mailer.sent.some((m) => m.to === 'ann@example.com'), { what: 'the mail' });
    t.is(mailer.sent.filter((m) => m.to === 'ann@example.com').length, 1);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
  // axe on the waiting step, with another respondent whose lookup waits for as long as axe takes (on a busy
  // machine, longer than the lookup's deadline: what becomes of that lookup is not this part's question).
  const releaseBob = gate('bob@example.com');
  const other = await openPage(browser, { width: 390 });
  try {
    await other.page.goto(`${app.url}/f/${created.body.slug}`);
    const form = other.page.locator('formloom-form');
    await form.getByRole('heading', { name: 'Your email' }).waitFor();
    await other.page.keyboard.type('bob@example.com');
    await other.page.keyboard.press('Enter');
    await form.getByRole('status').filter({ hasText: 'Looking up your details…' }).waitFor();
    t.deepEqual(await axeViolations(other.page), []);
  } finally {
    releaseBob();
    await other.close();
  }
});
