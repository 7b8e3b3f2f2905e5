import test from '../helpers/page-test';
import type { Browser } from 'playwright-core';
import { DB_KINDS, startTestApp } from '../helpers/app';
import { hostSite, launchBrowser, openPage } from '../helpers/browser';

/*
 * The element on another site (docs/respondents.md "Embedding"): a host page on another origin loads
 * `/embed.js`, shows the form inline and as a popup, submits from there, and hears the element's events.
 */
let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
});

for (const kind of DB_KINDS) {
  test(`[${kind}] a host page on another origin embeds the form inline and as a popup, submits, and receives the events`, async (t) => {
    t.timeout(180_000);
    const host = await hostSite();
    const app = await startTestApp(kind, { embedOrigins: [host.url] });
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await app.user();
      const created = await app.api('POST', '/forms', {
        key: u.key,
        body: { title: 'Feedback', published: true, questions: [{ type: 'short_text', title: 'Your name', required: true }, { type: 'rating', title: 'Stars', properties: { steps: 3 } }] },
      });
      const { slug, id } = created.body;
      host.html = `<!doctype html><html lang="en"><head><title>Shop</title><script type="module" src="${app.url}/embed.js"></script></head>
<body><h1>Shop</h1><formloom-form id="inline" slug="${slug}" base-url="${app.url}"></formloom-form>
<formloom-form id="popup" mode="popup" button-text="Give feedback" slug="${slug}"></formloom-form>
<script>window.events = []; for (const n of ['formloom:submit', 'formloom:page']) document.addEventListener(n, (e) => events.push({ type: e.type, target: e.target.id, detail: e.detail }));</script></body></html>`;
      await page.goto(host.url);
      const inline = page.locator('#inline');
      await inline.getByRole('heading', { name: 'Your name' }).waitFor();
      const small = (await inline.boundingBox())!.height;
      await inline.getByRole('textbox').fill('Grace');
      await page.keyboard.press('Enter');
      await inline.getByRole('heading', { name: 'Stars' }).waitFor();
      const id3 = await inline.getByRole('radio', { name: '3 of 3' }).getAttribute('id');
      // A tap on the last question's rating moves on by itself: it submits.
      await inline.locator(`label[for="${id3}"]`).click();
      await inline.getByRole('heading', { name: 'Thank you!' }).waitFor();
      const rootHeight = await inline.locator('.fl-root').evaluate((el: any) => el.getBoundingClientRect().height as number);
      t.is((await inline.boundingBox())!.height, rootHeight, "the element's height follows its content");
      t.true(small > 0);

      const list = await app.api('GET', `/forms/${id}/responses`, { key: u.key });
      t.is(list.body.total, 1);
      t.deepEqual(list.body.responses[0].answers.map((a: any) => a.value), ['Grace', 3]);
      t.is(list.body.responses[0].metadata.referrer, `${host.url}/`, 'the referrer is the host page');
      const events = await page.evaluate(() => (globalThis as any).events);
      t.deepEqual(
        events.filter((e: any) => e.target === 'inline').map((e: any) => [e.type, e.detail.index ?? e.detail.response_id]),
        [['formloom:page', 0], ['formloom:page', 1], ['formloom:submit', list.body.responses[0].id]],
      );

      // The popup: a button until clicked, then the form in a modal dialog; its base URL comes from embed.js.
      const popup = page.locator('#popup');
      t.is(await popup.getByRole('dialog').count(), 0);
      await popup.getByRole('button', { name: 'Give feedback' }).click();
      await popup.getByRole('dialog').getByRole('heading', { name: 'Your name' }).waitFor();
      await popup.getByRole('textbox').fill('Alan');
      await page.keyboard.press('Enter');
      await popup.getByRole('button', { name: 'Submit' }).click();
      await popup.getByRole('heading', { name: 'Thank you!' }).waitFor();
      t.is((await app.api('GET', `/forms/${id}/responses`, { key: u.key })).body.total, 2);
      t.deepEqual(errors, []);
    } finally {
      await close();
      await app.close();
      await host.close();
    }
  });
}
