import test from '../helpers/page-test';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';
import { startTestApp, type TestApp } from '../helpers/app';
import { axeViolations, hostSite, launchBrowser, openPage, shotsAtBothWidths } from '../helpers/browser';

/*
 * A Fuse question on the respondent's page (docs/logic.md "Fuse"): at 390 px by keyboard on `/f/`, the page
 * passes the Fuse without a click and becomes the Fuse form (its address too), whose question recalls the hidden
 * field the Fuse carried; a reload stays in the same continuation; the two responses name each other. Embedded
 * on another site (desktop width), the element becomes the Fuse form in place. axe 0 after the hand-over.
 * FUSE_SHOTS=<dir> writes screenshots at 390 and 1280 px.
 */
let browser: Browser;
let app: TestApp;
test.before(async () => {
  [browser, app] = await Promise.all([launchBrowser(), startTestApp('sqlite')]);
});
test.after.always(async () => {
  await browser?.close();
  await app?.close();
});

const shot = (page: Page, name: string) => shotsAtBothWidths(page, 'FUSE_SHOTS', name);

async function forms(key: string) {
  const make = async (body: Record<string, unknown>) => {
    const r = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
    if (!r.body.published) throw new Error(JSON.stringify(r.body));
    return r.body;
  };
  const target = await make({
    title: 'Choose your plan', hidden_fields: ['name', 'source'],
    questions: [{ type: 'short_text', title: 'Which plan suits you, {hidden.name}?', required: true }],
  });
  const origin = await make({
    title: 'Sign up',
    questions: [
      { id: 'name', type: 'short_text', title: 'Your name', required: true },
      { type: 'fuse', title: 'On to your plan', properties: { fuse_form_id: target.id, hidden_fields: { name: '{answer.name}', source: 'sign-up' } } },
    ],
  });
  return { origin, target };
}

test('a respondent passes a Fuse on /f/ without a click: the page becomes the Fuse form with the carried answer', async (t) => {
  t.timeout(120_000);
  const u = await app.user('pro');
  const { origin, target } = await forms(u.key);
  const { page, errors, close } = await openPage(browser, { width: 390 });
  try {
    await page.goto(`${app.url}/f/${origin.slug}`);
    const form = page.locator('formloom-form');
    await form.getByRole('heading', { name: 'Your name' }).waitFor();
    await page.keyboard.type('Ada');
    await page.keyboard.press('Enter');
    await form.getByRole('heading', { name: 'Which plan suits you, Ada?' }).waitFor();
    await waitFor(() => new URL(page.url()).pathname === `/f/${target.slug}`, { what: "the Fuse form's address" });
    t.deepEqual(await axeViolations(page), []);
    await shot(page, 'fuse-continued');
    // A reload stays in the continuation: the carried name is still there.
    await page.reload();
    await form.getByRole('heading', { name: 'Which plan suits you, Ada?' }).waitFor();
    await page.keyboard.type('Gold');
    await page.keyboard.press('Enter');
    await form.getByRole('heading', { name: 'Thank you!' }).waitFor();

    const [first] = (await app.api('GET', `/forms/${origin.id}/responses`, { key: u.key })).body.responses;
    const [second] = (await app.api('GET', `/forms/${target.id}/responses`, { key: u.key })).body.responses;
    t.truthy(first.completed_at);
    t.truthy(second.completed_at);
    t.deepEqual(first.fused_to, { form_id: target.id, response_id: second.id });
    t.deepEqual(second.fused_from, { form_id: origin.id, response_id: first.id });
    t.deepEqual(second.answers.map((a: any) => a.value), ['Gold']);
    t.deepEqual(second.metadata.hidden, { name: 'Ada', source: 'sign-up' });
    t.deepEqual(errors, []);
  } finally {
    await close();
  }
});

test('embedded on another site, the element becomes the Fuse form in place', async (t) => {
  t.timeout(120_000);
  const host = await hostSite();
  const embedded = await startTestApp('sqlite', { embedOrigins: [host.url] });
  const { page, errors, close } = await openPage(browser, { width: 1280 });
  try {
    const u = await embedded.user('pro');
    const target = (await embedded.api('POST', '/forms', { key: u.key, body: { title: 'Plan', published: true, hidden_fields: ['name'], questions: [{ type: 'short_text', title: 'Plan for {hidden.name}?' }] } })).body;
    const origin = (await embedded.api('POST', '/forms', {
      key: u.key,
      body: { title: 'Sign up', published: true, questions: [{ id: 'name', type: 'short_text', title: 'Your name' }, { type: 'fuse', title: 'On', properties: { fuse_form_id: target.id, hidden_fields: { name: '{answer.name}' } } }] },
    })).body;
    t.true(origin.published, JSON.stringify(origin.publish_error));
    host.html = `<!doctype html><html lang="en"><head><title>Shop</title><script type="module" src="${embedded.url}/embed.js"></script></head>
<body><h1>Shop</h1><formloom-form id="inline" slug="${origin.slug}" base-url="${embedded.url}"></formloom-form>
<script>window.events = []; for (const n of ['formloom:submit', 'formloom:fuse']) document.addEventListener(n, (e) => events.push({ type: e.type, detail: e.detail }));</script></body></html>`;
    await page.goto(host.url);
    const inline = page.locator('#inline');
    await inline.getByRole('heading', { name: 'Your name' }).waitFor();
    await inline.getByRole('textbox').fill('Grace');
    await page.keyboard.press('Enter');
    await inline.getByRole('heading', { name: 'Plan for Grace?' }).waitFor();
    t.is(new URL(page.url()).pathname, '/', "the host page's address is its own");
    // The respondent was typing: the Fuse form's question has the focus, so typing goes on.
    await page.keyboard.type('Gold');
    t.is(await inline.getByRole('textbox').inputValue(), 'Gold');
    t.is(await inline.getAttribute('slug'), target.slug);
    const events = await page.evaluate(() => (globalThis as any).events);
    t.deepEqual(events.map((e: any) => e.type), ['formloom:submit', 'formloom:fuse']);
    t.is(events[1].detail.slug, target.slug);
    await shot(page, 'fuse-embedded');

    // As a popup: the Fuse form's popup opens in its place, no second click.
    host.html = `<!doctype html><html lang="en"><head><title>Shop</title><script type="module" src="${embedded.url}/embed.js"></script></head>
<body><h1>Shop</h1><formloom-form id="popup" mode="popup" button-text="Sign up now" slug="${origin.slug}" base-url="${embedded.url}"></formloom-form></body></html>`;
    await page.goto(host.url);
    const popup = page.locator('#popup');
    await popup.getByRole('button', { name: 'Sign up now' }).click();
    await popup.getByRole('heading', { name: 'Your name' }).waitFor();
    await page.keyboard.type('Lin');
    await page.keyboard.press('Enter');
    await popup.getByRole('dialog').getByRole('heading', { name: 'Plan for Lin?' }).waitFor();
    t.deepEqual(errors, []);
  } finally {
    await close();
    await embedded.close();
    await host.close();
  }
});
