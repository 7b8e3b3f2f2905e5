import test from '../helpers/page-test';
import type { Browser, Page } from 'playwright-core';
import { DB_KINDS, startTestApp, type TestApp } from '../helpers/app';
import { eventually, hostSite, launchBrowser, openPage, webhookReceiver } from '../helpers/browser';

/*
 * The respondent's page over time (docs/respondents.md): a partial response saved as they go and resumed
 * after a reload, one response per visitor, a lost connection retried without losing answers, and a form
 * unpublished while it is being answered.
 */
let browser: Browser;
test.before(async () => {
  browser = await launchBrowser();
});
/*
 * One app per database for the whole file (its tests run one at a time, each with its own user and forms):
 * starting one per test cost eight apps and databases.
 */
const apps = new Map<string, Promise<TestApp>>();
const appOf = (kind: (typeof DB_KINDS)[number]) => {
  if (!apps.has(kind)) apps.set(kind, startTestApp(kind, { allowPrivateWebhooks: true }));
  return apps.get(kind)!;
};
test.after.always(async () => {
  await browser?.close();
  for (const app of apps.values()) await (await app).close();
});

const form = (page: Page) => page.locator('formloom-form');
const heading = (page: Page, name: string) => form(page).getByRole('heading', { name }).waitFor();

async function publish(app: TestApp, key: string, body: Record<string, unknown>) {
  const res = await app.api('POST', '/forms', { key, body: { published: true, ...body } });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return res.body as { id: string; slug: string; questions: Array<{ id: string }> };
}

const THREE = [
  { type: 'short_text', title: 'First', required: true },
  { type: 'number', title: 'Second', required: true },
  { type: 'short_text', title: 'Third' },
];

for (const kind of DB_KINDS) {
  test(`[${kind}] incremental_submission saves each answer, a reload resumes, completion fires the webhook once`, async (t) => {
    t.timeout(180_000);
    const app = await appOf(kind);
    const hook = await webhookReceiver();
    const { page, errors, close } = await openPage(browser);
    try {
      app.formloom.worker.start({ pollMs: 100 });
      const u = await app.user('pro');
      const f = await publish(app, u.key, { title: 'Steps', incremental_submission: true, webhook_url: hook.url, questions: THREE });
      await page.goto(`${app.url}/f/${f.slug}`);
      await heading(page, 'First');
      await page.keyboard.type('one');
      await page.keyboard.press('Enter');
      await heading(page, 'Second');
      const partial = await app.api('GET', `/forms/${f.id}/responses`, { key: u.key });
      t.is(partial.body.total, 1);
      t.is(partial.body.responses[0].completed_at, null);
      t.deepEqual(partial.body.responses[0].answers, [{ question_id: f.questions[0]!.id, value: 'one' }]);

      await page.reload();
      await heading(page, 'Second');
      await form(page).getByRole('button', { name: 'Previous question' }).click();
      await heading(page, 'First');
      t.is(await form(page).getByRole('textbox').inputValue(), 'one', 'the answer came back with the resume');
      await page.keyboard.press('Enter');
      await heading(page, 'Second');
      await page.keyboard.type('2');
      await page.keyboard.press('Enter');
      await heading(page, 'Third');
      await page.keyboard.type('three');
      await page.keyboard.press('Enter');
      await heading(page, 'Thank you!');

      const done = await app.api('GET', `/forms/${f.id}/responses`, { key: u.key });
      t.is(done.body.total, 1, 'the partial response was completed, not duplicated');
      const r = done.body.responses[0];
      t.truthy(r.completed_at);
      t.deepEqual(r.answers.map((a: any) => a.value), ['one', 2, 'three']);
      t.true(await eventually(() => hook.bodies.length >= 1));
      t.is(hook.bodies.length, 1);
      t.is(hook.bodies[0].response.id, r.id);
      await page.reload();
      await heading(page, 'First');
      t.is(await form(page).getByRole('textbox').inputValue(), '', 'a completed response is not resumed');
      t.deepEqual(errors, []);
    } finally {
      await close();
      await hook.close();
    }
  });

  test(`[${kind}] limit_one_response: a second visit says the form was answered, also when only the server knows`, async (t) => {
    t.timeout(180_000);
    const app = await appOf(kind);
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await app.user();
      const f = await publish(app, u.key, { title: 'Once', limit_one_response: true, questions: [{ type: 'yes_no', title: 'Agree?' }] });
      await page.goto(`${app.url}/f/${f.slug}`);
      await heading(page, 'Agree?');
      await page.keyboard.press('y');
      await heading(page, 'Thank you!');
      await page.reload();
      await heading(page, 'You have already answered this form');
      // The browser forgets it answered but keeps its visitor id: the server's 409 says the same.
      await page.evaluate((slug) => (globalThis as any).localStorage.removeItem(`formloom:done:${slug}`), f.slug);
      await page.reload();
      await heading(page, 'Agree?');
      await page.keyboard.press('n');
      await heading(page, 'You have already answered this form');
      t.is((await app.api('GET', `/forms/${f.id}/responses`, { key: u.key })).body.total, 1);
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test(`[${kind}] a lost connection keeps the answers for a retry; an unpublished form says so`, async (t) => {
    t.timeout(180_000);
    const app = await appOf(kind);
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await app.user();
      const f = await publish(app, u.key, { title: 'Net', questions: [{ type: 'short_text', title: 'Say something', required: true }] });
      await page.goto(`${app.url}/f/${f.slug}`);
      await heading(page, 'Say something');
      await page.keyboard.type('hello');
      await page.context().setOffline(true);
      await form(page).getByRole('button', { name: 'Submit' }).click();
      await form(page).getByText('The connection was lost. Your answers are kept on this page.').waitFor();
      t.is((await app.api('GET', `/forms/${f.id}/responses`, { key: u.key })).body.total, 0);
      await page.context().setOffline(false);
      await form(page).getByRole('button', { name: 'Retry' }).click();
      await heading(page, 'Thank you!');
      const list = await app.api('GET', `/forms/${f.id}/responses`, { key: u.key });
      t.deepEqual(list.body.responses.map((r: any) => r.answers[0].value), ['hello']);

      const g = await publish(app, u.key, { title: 'Gone', questions: [{ type: 'short_text', title: 'Anything' }] });
      await page.goto(`${app.url}/f/${g.slug}`);
      await heading(page, 'Anything');
      t.is((await app.api('DELETE', `/forms/${g.id}/publish`, { key: u.key })).status, 200);
      await form(page).getByRole('button', { name: 'Submit' }).click();
      await heading(page, 'This form is no longer published');
      t.deepEqual(errors, []);
    } finally {
      await close();
    }
  });

  test(`[${kind}] the URL's hidden fields and prefill reach the response and the start jumps; redirect after completion; a closed form says so`, async (t) => {
    t.timeout(180_000);
    const app = await appOf(kind);
    const done = await hostSite();
    done.html = '<!doctype html><html lang="en"><head><title>Done</title></head><body><h1>Thanks from the shop</h1></body></html>';
    const { page, errors, close } = await openPage(browser);
    try {
      const u = await app.user();
      const body = {
        title: 'Campaign',
        hidden_fields: ['src'],
        redirect_url: `${done.url}/done`,
        redirect_append_response_id: true,
        questions: [{ id: 'tmp_intro', type: 'short_text', title: 'Intro question', required: true }, { id: 'tmp_name', type: 'short_text', title: 'Name' }],
        start_logic_jumps: [{ conditions: [{ field: 'hidden:src', op: 'equals', value: 'ads' }], to: 'tmp_name' }],
      };
      const f = await publish(app, u.key, body);
      const name = f.questions[1]!.id;
      await page.goto(`${app.url}/f/${f.slug}?src=ads&${name}=Ada`);
      await heading(page, 'Name');
      t.is(await form(page).getByRole('textbox').inputValue(), 'Ada', 'prefilled from the URL');
      await page.keyboard.press('Enter');
      // The thank-you screen shows for a moment, then the redirect; only the redirect is waited for.
      await page.waitForURL(/\/done\?response_id=/);
      const list = await app.api('GET', `/forms/${f.id}/responses`, { key: u.key });
      const r = list.body.responses[0];
      t.is(new URL(page.url()).searchParams.get('response_id'), r.id);
      t.deepEqual(r.answers, [{ question_id: name, value: 'Ada' }], 'the intro question was skipped by the start jump');
      t.deepEqual(r.metadata.hidden, { src: 'ads' });

      const closed = await publish(app, u.key, { title: 'Old', close_at: '2020-01-01T00:00:00Z', questions: [{ type: 'short_text', title: 'Too late' }] });
      await page.goto(`${app.url}/f/${closed.slug}`);
      await heading(page, 'This form is closed');
      t.deepEqual(errors, []);
    } finally {
      await close();
      await done.close();
    }
  });
}
