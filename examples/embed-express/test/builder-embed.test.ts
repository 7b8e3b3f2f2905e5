import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { axeViolations, launchBrowser } from '@formloom/test-browser';
import { createFormloom } from '@formloom/core';
import { createDataSource, createTypeormStorage, runMigrations } from '@formloom/storage-typeorm';
import { createHostApp, DEMO_SESSIONS, HostSessions } from '../src';

/*
 * `<formloom-builder>` in the host's own page, behind the host's own sign-in (docs/workspace.md, "In your
 * own page"): the element calls the API with the host's cookie; the host's `authenticate` hook is the only
 * identity.
 */

let url = '';
let browser: Browser;
let stop: () => Promise<void>;

test.before(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'formloom-embed-builder-'));
  const dataSource = createDataSource(`sqlite:${join(dir, 'host.sqlite')}`);
  const storage = createTypeormStorage(dataSource);
  await runMigrations(dataSource);
  const formloom = createFormloom({ storage });
  const server: Server = createServer(createHostApp({ formloom, sessions: new HostSessions(new Map(DEMO_SESSIONS)), demoUsers: DEMO_SESSIONS }));
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  stop = async () => {
    await new Promise<void>((ok) => server.close(() => ok()));
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  };
});
test.after.always(async () => {
  await browser?.close();
  await stop?.();
});

const api = async (method: string, path: string, token: string, body?: unknown) => {
  const res = await fetch(`${url}/api/v1${path}`, { method, headers: { 'x-session-token': token, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: (await res.json()) as any };
};

test("the host's page places <formloom-builder> behind its own sign-in; edits reach the API as the host's user", async (t) => {
  t.timeout(120_000);
  const created = await api('POST', '/forms', 'ada-session', { title: 'Host survey', questions: [{ type: 'short_text', title: 'Name' }] });
  t.is(created.status, 201);
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  try {
    // Not signed in to the host: its own sign-in page comes first.
    await page.goto(`${url}/builder/${created.body.id}`);
    await page.getByRole('heading', { name: 'Sign in to the host app' }).waitFor();
    await page.getByRole('button', { name: 'Sign in as Ada Lovelace' }).click();

    const title = page.getByRole('textbox', { name: 'Form title' });
    await title.waitFor();
    t.is(await title.inputValue(), 'Host survey');
    await page.getByText('signed in as Ada Lovelace').waitFor();
    await title.fill('Host survey, edited in the host page');
    await page.getByRole('combobox', { name: /^New question/ }).selectOption({ label: 'Rating' });
    await page.getByRole('button', { name: 'Add question' }).click();
    await page.getByLabel('Question 2', { exact: true }).fill('How was it?');
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor();
    // Tabs switch in place: the host's URL stays its own.
    await page.getByRole('navigation', { name: 'Form sections' }).getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByRole('heading', { name: 'Not published yet' }).waitFor();
    await page.getByRole('button', { name: 'Publish', exact: true }).last().click();
    await page.getByText('Version 1 is live.').waitFor();
    t.is(new URL(page.url()).pathname, `/builder/${created.body.id}`);

    t.deepEqual(await axeViolations(page), []);

    const form = await api('GET', `/forms/${created.body.id}`, 'ada-session');
    t.is(form.body.title, 'Host survey, edited in the host page');
    t.deepEqual(form.body.questions.map((q: any) => [q.type, q.title]), [['short_text', 'Name'], ['rating', 'How was it?']]);
    t.true(form.body.published);
    // Grace, another host user, cannot see Ada's form through the same element.
    t.is((await api('GET', `/forms/${created.body.id}`, 'grace-session')).status, 403);
    t.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

test("in the host's page the Share tab says in plain words who allows a site (never the self-hosted setting), and a 401 reaches the host as formloom-unauthorized", async (t) => {
  t.timeout(120_000);
  const created = await api('POST', '/forms', 'ada-session', { title: 'Expiring', questions: [{ type: 'short_text', title: 'Name' }] });
  t.is(created.status, 201);
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await context.newPage();
  try {
    await page.goto(`${url}/login?next=${encodeURIComponent(`/builder/${created.body.id}`)}`);
    await page.getByRole('button', { name: 'Sign in as Ada Lovelace' }).click();
    const title = page.getByRole('textbox', { name: 'Form title' });
    await title.waitFor();

    await page.getByRole('button', { name: 'Share', exact: true }).click();
    const hint = page.getByText('Only sites this app allows can show the form');
    await hint.waitFor();
    // In plain words for the host's people: who can allow a site (the host's developers), no setting's name.
    t.regex(await hint.innerText(), /ask the app's developers to add your site/);
    t.is(await page.getByText('FORMLOOM_EMBED_ORIGINS').count(), 0, 'the self-hosted setting is not a host\'s');

    // What the event carries, as a host listening on document sees it.
    await page.evaluate(() => {
      const g = globalThis as any;
      g.document.addEventListener('formloom-unauthorized', (e: any) => g.sessionStorage.setItem('unauthorized', JSON.stringify(e.detail)));
    });
    // The host's session ends (its cookie is gone); the next save is answered 401.
    await context.clearCookies();
    await page.getByRole('button', { name: 'Questions', exact: true }).click();
    await page.getByRole('textbox', { name: 'Form title' }).fill('Expiring, edited');
    // The host page's listener sends the person to its own sign-in, to come back here.
    await page.getByRole('heading', { name: 'Sign in to the host app' }).waitFor({ timeout: 60_000 });
    t.is(new URL(page.url()).searchParams.get('next'), `/builder/${created.body.id}`);
    const detail = JSON.parse((await page.evaluate(() => (globalThis as any).sessionStorage.getItem('unauthorized'))) ?? 'null');
    t.like(detail, { status: 401 });
    t.regex(detail.url, new RegExp(`/api/v1/forms/${created.body.id}`));
  } finally {
    await context.close();
  }
});
