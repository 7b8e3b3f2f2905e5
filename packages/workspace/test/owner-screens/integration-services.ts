import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';
import { createFetchTransport } from '@formloom/express';
import { restHooksPlugin } from '@formloom/plugin-rest-hooks';
import { slackPlugin } from '@formloom/plugin-slack';
import { startWorkspaceApp, type WorkspaceTestApp } from '../helpers/app';
import { axeViolations, openPage, tabTo } from '../helpers/browser';
import { sharedBrowser } from '../helpers/shared';

/*
 * The Integrations tab's services (docs/integrations.md): the offered integrations, one added with the form its
 * plugin describes (the webhook URL secret), the answers chosen and renamed, Send test with Slack's answer, the
 * delivery log, pause and resume by keyboard, delete; at 1280 and 390 px with axe. FORMLOOM_SHOTS=<dir> also
 * saves screenshots there.
 */

let app: WorkspaceTestApp;
let browser: Browser;
let slack: { url: string; got: any[]; close(): Promise<unknown> };
test.before(async () => {
  const got: any[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => (got.push(JSON.parse(raw)), res.end('ok')));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  slack = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/services/T0/B0/token`, got, close: () => new Promise((r) => server.close(r)) };
  [app, browser] = await Promise.all([
    startWorkspaceApp('sqlite', { plugins: [slackPlugin(), restHooksPlugin()], webhookTransport: createFetchTransport({ allowPrivate: true }) }),
    sharedBrowser(),
  ]);
  app.formloom.worker.start({ pollMs: 50 });
});
test.after.always(async () => {
  await app?.close();
  await slack?.close();
});

/** The integrations card alone (the tab's other cards have their own screenshots). */
async function shot(page: Page, name: string) {
  const dir = process.env.FORMLOOM_SHOTS;
  if (!dir) return;
  // Tall enough for the whole card: the form's sticky header never lies over it.
  const size = page.viewportSize()!;
  await page.setViewportSize({ width: size.width, height: 2400 });
  await page.locator('fl-integrations-card').screenshot({ path: `${dir}/${name}.png` });
  await page.setViewportSize(size);
}

const noSidewaysScroll = (page: Page) => page.evaluate(`document.documentElement.scrollWidth - document.documentElement.clientWidth`) as Promise<number>;

test('an owner adds Slack with chosen answers, sends a test, reads the log, pauses by keyboard and deletes it; the phone width fits', async (t) => {
  t.timeout(200_000);
  const owner = await app.user('free');
  const f = (await app.api('POST', '/forms', {
    key: owner.key,
    body: { title: 'Orders', published: true, questions: [{ type: 'short_text', title: 'Name' }, { type: 'dropdown', title: 'City', properties: { choices: [{ label: 'Berlin' }] } }, { type: 'short_text', title: 'Private note' }] },
  })).body;
  const { page, errors, close } = await openPage(browser, { cookie: owner.cookie, width: 1280 });
  try {
    await page.goto(`${app.url}/forms/${f.id}/integrations`);
    await page.getByRole('heading', { name: 'Connected services' }).waitFor();
    for (const name of ['Add Slack', 'Add Discord', 'Add Microsoft Teams', 'Add Google Chat']) t.true(await page.getByRole('button', { name }).isVisible(), name);
    t.deepEqual(await axeViolations(page), [], 'axe, the list');

    await page.getByRole('button', { name: 'Add Slack' }).click();
    await page.getByRole('heading', { name: 'Add Slack' }).waitFor();
    t.is(await page.evaluate(() => { let a: any = (globalThis as any).document.activeElement; while (a?.shadowRoot?.activeElement) a = a.shadowRoot.activeElement; return a?.textContent; }), 'Add Slack', 'focus on the editor heading');
    await page.getByLabel('Webhook URL').fill(slack.url);
    await page.getByRole('checkbox', { name: 'Send Private note' }).uncheck();
    await page.getByLabel('Name for City').fill('Where');
    await page.getByRole('button', { name: 'Add Slack', exact: true }).last().click();
    await page.getByRole('status').filter({ hasText: 'Slack added' }).waitFor();
    const [saved] = (await app.api('GET', `/forms/${f.id}/integrations`, { key: owner.key })).body.integrations;
    t.like(saved, { type: 'slack', status: 'active', secrets_set: ['webhook_url'] });
    t.deepEqual(saved.fields.map((x: any) => x.name), ['Name', 'Where']);
    t.is(await page.getByLabel('Webhook URL').inputValue(), '', 'the secret is not shown again');
    t.deepEqual(await axeViolations(page), [], 'axe, the editor');

    await page.getByRole('button', { name: 'Send test' }).click();
    const result = page.getByRole('region', { name: 'Test result' });
    await result.filter({ hasText: 'Slack answered 200' }).waitFor();
    t.regex(await result.innerText(), /Delivered/);
    await app.api('POST', `/public/forms/${f.slug}/responses`, { body: { answers: [{ question_id: f.questions[0].id, value: 'Ada' }, { question_id: f.questions[1].id, value: 'Berlin' }, { question_id: f.questions[2].id, value: 'secret' }] } });
    await waitFor(() => slack.got.length === 2, { timeoutMs: 30_000, intervalMs: 50 });
    t.false(JSON.stringify(slack.got[1]).includes('secret'));
    await waitFor(async () => {
      await page.getByRole('button', { name: 'Refresh' }).last().click();
      return /response\tdelivered/.test(await page.getByRole('region', { name: 'Deliveries' }).innerText());
    }, { timeoutMs: 30_000, intervalMs: 200 }).catch(() => undefined);
    const log = await page.getByRole('region', { name: 'Deliveries' }).innerText();
    t.regex(log, /response/);
    t.regex(log, /test/);
    await shot(page, 'integrations-slack');

    // Pause and resume with the keyboard alone.
    await tabTo(page, (el) => el.tag === 'button' && el.text === 'Pause');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Resume' }).waitFor();
    t.is((await app.api('GET', `/forms/${f.id}/integrations`, { key: owner.key })).body.integrations[0].status, 'paused');
    await tabTo(page, (el) => el.tag === 'button' && el.text === 'Resume', { back: true });
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Pause' }).waitFor();

    await page.getByRole('button', { name: 'Back to integrations' }).click();
    await page.getByRole('heading', { name: 'Connected services' }).waitFor();
    t.regex(await page.getByRole('list', { name: "This form's integrations" }).innerText(), /Slack\s*On/);
    await shot(page, 'integrations-list');
    t.true((await noSidewaysScroll(page)) <= 0);
    t.deepEqual(errors, []);
  } finally {
    await close();
  }

  const phone = await openPage(browser, { cookie: owner.cookie, width: 390 });
  try {
    await phone.page.goto(`${app.url}/forms/${f.id}/integrations`);
    await phone.page.getByRole('heading', { name: 'Connected services' }).waitFor();
    await phone.page.getByRole('button', { name: 'Set up Slack' }).click();
    await phone.page.getByRole('heading', { name: 'Slack' }).first().waitFor();
    await shot(phone.page, 'integrations-slack-phone');
    t.deepEqual(await axeViolations(phone.page), [], 'axe at 390 px');
    t.is(Math.max(0, await noSidewaysScroll(phone.page)), 0, 'nothing scrolls sideways at 390 px');
    await phone.page.getByRole('button', { name: 'Delete' }).click();
    await phone.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await phone.page.getByRole('heading', { name: 'Connected services' }).waitFor();
    t.deepEqual((await app.api('GET', `/forms/${f.id}/integrations`, { key: owner.key })).body.integrations, []);
    t.deepEqual(phone.errors, []);
  } finally {
    await phone.close();
  }
});
