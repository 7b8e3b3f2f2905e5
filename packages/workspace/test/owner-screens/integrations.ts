import test from '../helpers/bounded-test';
import type { Browser } from 'playwright-core';
import type { WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, shot } from '../helpers/browser';
import { sharedApp, sharedBrowser } from '../helpers/shared';

/*
 * The builder's Integrations tab (docs/workspace.md, "Integrations"): the form's webhook, global webhooks,
 * the signing secret on request and its rotation, the delivery log; a plan without webhooks.
 * FORMLOOM_SHOTS=<dir> also saves screenshots there.
 */

let app: WorkspaceTestApp;
let browser: Browser;
test.before(async () => {
  [app, browser] = await Promise.all([sharedApp(), sharedBrowser()]);
});

async function form(key: string) {
  const res = await app.api('POST', '/forms', { key, body: { title: 'Orders', published: true, questions: [{ type: 'yes_no', title: 'Ship it?' }] } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body;
}

for (const width of [1280, 390]) {
  test(`at ${width} px an owner sets the form and global webhooks, sees and rotates the secret, and reads the delivery log`, async (t) => {
    t.timeout(200_000);
    const owner = await app.user('pro');
    const f = await form(owner.key);
    const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width });
    try {
      await page.goto(`${app.url}/forms/${f.id}/integrations`);
      await page.getByRole('heading', { name: "This form's webhook" }).waitFor();
      t.deepEqual(await axeViolations(page), [], 'axe, nothing set');

      await page.getByLabel('Webhook URL', { exact: true }).fill('https://hooks.example.com/orders');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('button', { name: 'Remove' }).first().waitFor();
      t.is((await app.api('GET', `/forms/${f.id}/webhooks`, { key: owner.key })).body.webhook_url, 'https://hooks.example.com/orders');

      await page.getByLabel('New global webhook URL').fill('https://hooks.example.com/all');
      await page.getByRole('button', { name: 'Add' }).click();
      await page.getByRole('checkbox', { name: 'Enabled' }).waitFor();
      await page.getByRole('checkbox', { name: 'Enabled' }).uncheck();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      t.deepEqual((await app.api('GET', '/webhooks', { key: owner.key })).body.webhooks, [{ url: 'https://hooks.example.com/all', enabled: false }]);

      // The secret only on request; rotation asks first.
      t.is(await page.locator('code.secret').count(), 0, 'hidden until asked for');
      await page.getByRole('button', { name: 'Show secret' }).click();
      const secret = (await app.api('GET', '/webhooks/secret', { key: owner.key })).body.secret;
      await page.getByText(secret).waitFor();
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
      t.is((await app.api('GET', '/webhooks/secret', { key: owner.key })).body.secret, secret, 'cancel keeps the secret');
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('status').filter({ hasText: 'Secret rotated' }).waitFor();
      const rotated = (await app.api('GET', '/webhooks/secret', { key: owner.key })).body.secret;
      t.not(rotated, secret);
      await page.getByText(rotated).waitFor();

      // A response makes a delivery to the form's webhook; the log shows it.
      await app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [{ question_id: f.questions[0].id, value: true }] } });
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.getByRole('cell', { name: 'https://hooks.example.com/orders' }).waitFor();
      await page.getByRole('button', { name: 'Send a test delivery' }).click();
      await page.getByRole('status').filter({ hasText: 'Test delivery queued to 1 webhook.' }).waitFor();
      await page.getByRole('cell', { name: 'test', exact: true }).waitFor();
      t.deepEqual(await axeViolations(page), [], 'axe, everything set');
      await shot(page, `integrations-${width}`);
      if (width < 500) t.true(await page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth <= 392), `no sideways scroll: ${await page.evaluate(() => {
        const out: string[] = [];
        const walk = (root: any) => { for (const el of root.querySelectorAll('*')) { const r = el.getBoundingClientRect(); if (r.right > 392) out.push(`${el.tagName}.${el.className} ${Math.round(r.right)}`); if (el.shadowRoot) walk(el.shadowRoot); } };
        walk((globalThis as any).document);
        return out.slice(0, 12).join(' | ');
      })}`);
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });
}

test("the delivery log shows the start of the receiver's answer, and a failed delivery is resent", async (t) => {
  t.timeout(200_000);
  const owner = await app.user('pro');
  const f = await form(owner.key);
  await app.api('PUT', `/forms/${f.id}/webhooks`, { key: owner.key, body: { url: 'https://hooks.example.com/orders' } });
  // A delivery whose one attempt the receiver refused, as the worker records it (the answer's storage has its own HTTP tests).
  const now = new Date().toISOString();
  const answer = '{"error":"invalid_signature","detail":"the <b>secret</b> is not the one we know"}';
  await app.formloom.storage.deliveries.insert({
    id: 'whd_excerpt_test', form_id: f.id, response_id: null, user_id: owner.id, url: 'https://hooks.example.com/orders', event: 'response.submitted',
    body: '{}', status: 'failed', attempts: 1, last_status_code: 401, last_duration_ms: 40, last_error: 'HTTP 401', last_response_excerpt: answer,
    next_attempt_at: null, created_at: now, updated_at: now,
  });
  // A confirmation call's outcome, delivered earlier: its row names the event in plain words.
  const before = new Date(Date.parse(now) - 60_000).toISOString();
  await app.formloom.storage.deliveries.insert({
    id: 'whd_call_test', form_id: f.id, response_id: null, user_id: owner.id, url: 'https://hooks.example.com/calls', event: 'booking.call_completed',
    body: '{}', status: 'delivered', attempts: 1, last_status_code: 200, last_duration_ms: 30, last_error: null, last_response_excerpt: null,
    next_attempt_at: null, created_at: before, updated_at: before,
  });
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width: 1280 });
  try {
    await page.goto(`${app.url}/forms/${f.id}/integrations`);
    const row = page.getByRole('row').filter({ hasText: 'hooks.example.com/orders' });
    await row.getByRole('cell', { name: '401', exact: true }).waitFor();
    await page.getByRole('row').filter({ hasText: 'hooks.example.com/calls' }).getByRole('cell', { name: 'call outcome', exact: true }).waitFor();
    t.false(await row.getByText(answer).isVisible(), 'folded until asked for');
    await row.getByText('Response body').click();
    await row.getByText(answer).waitFor();
    t.true(await row.getByText(answer).isVisible(), 'shown as text, markup and all');
    t.deepEqual(await axeViolations(page), [], 'axe with the answer open');
    await shot(page, 'integrations-response-body');
    await row.getByRole('button', { name: 'Resend' }).click();
    await row.getByText('pending').waitFor();
    t.is((await app.api('GET', `/forms/${f.id}/webhooks/deliveries`, { key: owner.key })).body.deliveries[0].status, 'pending');
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('a plan without webhooks gets a clear message instead of controls', async (t) => {
  t.timeout(120_000);
  const owner = await app.user('free');
  const f = await form(owner.key);
  const { page, close } = await openPage(browser, { cookie: owner.cookie });
  try {
    await page.goto(`${app.url}/forms/${f.id}/integrations`);
    await page.getByRole('heading', { name: 'Webhooks are not available' }).waitFor();
    t.is(await page.getByRole('button', { name: 'Rotate secret' }).count(), 0);
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'integrations-blocked');
  } finally {
    await close();
  }
});

test('a team viewer sees the webhook and its deliveries but no controls', async (t) => {
  t.timeout(120_000);
  const owner = await app.user('enterprise');
  const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Acme' } })).body;
  const viewer = await app.user();
  const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: viewer.email, role: 'viewer' } });
  t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: viewer.key })).status, 200);
  const f = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Team hooks', team_id: team.id, questions: [{ type: 'yes_no', title: 'Ok?' }] } })).body;
  t.is((await app.api('PUT', `/forms/${f.id}/webhooks`, { key: owner.key, body: { url: 'https://hooks.example.com/team' } })).status, 200);
  const { page, errors, close } = await openPage(browser, { cookie: viewer.cookie });
  try {
    await page.goto(`${app.url}/forms/${f.id}/integrations`);
    await page.getByText('https://hooks.example.com/team').waitFor();
    await page.getByRole('heading', { name: 'Delivery log' }).waitFor();
    for (const name of ['Save', 'Remove', 'Add', 'Show secret', 'Rotate secret', 'Send a test delivery']) {
      t.is(await page.getByRole('button', { name, exact: true }).count(), 0, `no ${name} button`);
    }
    t.deepEqual(await axeViolations(page), []);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});
