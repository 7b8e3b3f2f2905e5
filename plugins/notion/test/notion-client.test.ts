import test from 'ava';
import { NotionWriter } from '../src/notion-client';
import { databaseIdOf, type PageAnswer } from '../src/notion-properties';
import { waitFor } from '@formloom/core/testing';
import { notionPlugin } from '../src/index';
import { FakeNotion } from './helpers/fake-notion';
import { startPluginHost } from '@formloom/self-hosted/dist/src/testing';

// The SDK against a local server speaking Notion's API (the true boundary).

const TOKEN = 'ntn_test_formloom';
const DB = '0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
let fake: FakeNotion;
let writer: NotionWriter;

test.before(async () => {
  fake = await FakeNotion.start();
  fake.addDatabase(DB, [TOKEN], {
    Name: { type: 'title' },
    Email: { type: 'email' },
    Score: { type: 'number' },
    City: { type: 'select' },
    Toppings: { type: 'multi_select' },
    Subscribed: { type: 'checkbox' },
    'Visit date': { type: 'date' },
    Comments: { type: 'rich_text' },
    CV: { type: 'files' },
    'Response ID': { type: 'rich_text' },
    'Submitted at': { type: 'date' },
    Total: { type: 'formula' },
  });
  writer = new NotionWriter({ fetch: globalThis.fetch, baseUrl: fake.baseUrl });
});
test.after.always(() => fake?.close());

const a = (name: string, type: string, value: unknown, text: string, extra: Partial<PageAnswer> = {}): PageAnswer => ({ name, type, value, text, ...extra });
const input = (answers: PageAnswer[], response_id = 'rsp_1') => ({ form_title: 'Pizza survey', response_id, submitted_at: '2026-12-06T07:30:00.000Z', answers });

test.serial('a page per response: each answer in the shape of its property type; the rest listed as skipped', async (t) => {
  const out = await writer.createPage(TOKEN, DB, input([
    a('Email', 'email', 'ada@example.com', 'ada@example.com'),
    a('Score', 'opinion_scale', 9, '9'),
    a('city', 'dropdown', 'Berlin, Mitte', 'Berlin, Mitte'),
    a('Toppings', 'multiple_choice', ['Olives', 'Basil'], 'Olives and Basil'),
    a('Subscribed', 'yes_no', false, 'No'),
    a('Visit date', 'date', '2026-12-24', 'December 24, 2026'),
    a('Comments', 'long_text', 'x'.repeat(4500), 'x'.repeat(4500)),
    a('CV', 'file_upload', { name: 'cv.pdf', url: 'https://f.example/cv' }, 'cv.pdf', { file_url: 'https://f.example/cv' }),
    a('Total', 'number', 3, '3'),
    a('Favourite colour', 'short_text', 'Blue', 'Blue'),
    a('Phone', 'phone', null, ''),
  ]));
  t.like(out, { ok: true, status: 200 });
  t.regex(out.body ?? '', /^Created page https:\/\/www\.notion\.so\/[0-9a-f]{32}; no property for: Total, Favourite colour$/);
  const page = fake.databases.get(DB)!.pages[0]!.properties;
  t.deepEqual(page.Name, { title: [{ type: 'text', text: { content: 'Pizza survey – 2026-12-06 07:30 UTC' } }] });
  t.deepEqual(page.Email, { email: 'ada@example.com' });
  t.deepEqual(page.Score, { number: 9 });
  t.deepEqual(page.City, { select: { name: 'Berlin Mitte' } }, 'Notion refuses commas in an option');
  t.deepEqual(page.Toppings, { multi_select: [{ name: 'Olives' }, { name: 'Basil' }] });
  t.deepEqual(page.Subscribed, { checkbox: false });
  t.deepEqual(page['Visit date'], { date: { start: '2026-12-24' } });
  t.deepEqual(page.Comments.rich_text.map((c: any) => c.text.content.length), [2000, 2000, 500]);
  t.deepEqual(page.CV, { files: [{ name: 'cv.pdf', type: 'external', external: { url: 'https://f.example/cv' } }] });
  t.deepEqual(page['Response ID'], { rich_text: [{ type: 'text', text: { content: 'rsp_1' } }] });
  t.deepEqual(page['Submitted at'], { date: { start: '2026-12-06T07:30:00.000Z' } });
  t.false('Total' in page);
  t.true(fake.calls.every((c) => c.version === '2025-09-03'));
});

test.serial("the database's properties are read once, and again when Notion says a page no longer fits them", async (t) => {
  const reads = () => fake.calls.filter((c) => c.method === 'GET').length;
  const before = reads();
  t.true((await writer.createPage(TOKEN, DB, input([a('Name', 'short_text', 'Grace', 'Grace')], 'rsp_2'))).ok);
  t.is(reads(), before, 'kept from the first page');
  // Someone renamed "Score" to "Rating" in Notion: the kept properties are stale.
  const db = fake.databases.get(DB)!;
  db.properties = Object.fromEntries(Object.entries(db.properties).map(([k, v]) => [k === 'Score' ? 'Rating' : k, v]));
  const out = await writer.createPage(TOKEN, DB, input([a('Rating', 'rating', 4, '4'), a('Score', 'rating', 4, '4')], 'rsp_3'));
  t.like(out, { ok: true });
  t.regex(out.body ?? '', /no property for: Score$/);
  t.is(reads(), before + 2, 'read again once');
  t.deepEqual(db.pages.at(-1)!.properties.Rating, { number: 4 });
});

test.serial('4xx answers are final; 429, 409 and 5xx are retried after Retry-After; no answer is retried', async (t) => {
  const pages = () => fake.databases.get(DB)!.pages.length;
  const before = pages();
  fake.fail(1, 429, 'rate_limited', { 'retry-after': '7' });
  t.like(await writer.createPage(TOKEN, DB, input([])), { ok: false, status: 429, retry: true, retryAfterMs: 7000, error: 'HTTP 429: rate_limited: Forced rate_limited' });
  fake.fail(1, 409, 'conflict_error');
  t.like(await writer.createPage(TOKEN, DB, input([])), { ok: false, status: 409, retry: true });
  fake.fail(1, 502, 'internal_server_error');
  t.like(await writer.createPage(TOKEN, DB, input([])), { ok: false, status: 502, retry: true });
  t.like(await writer.createPage('ntn_not_shared', DB, input([])), { ok: false, status: 404, retry: false });
  t.like(await writer.createPage('secret_wrong', DB, input([])), { ok: false, status: 401, retry: false });
  const down = new NotionWriter({ fetch: globalThis.fetch, baseUrl: 'http://127.0.0.1:9' });
  t.like(await down.createPage(TOKEN, DB, input([])), { ok: false, status: null, retry: true });
  t.is(pages(), before);
});

test.serial('a retry after a restart that may follow a page made already finds it by its Response ID and makes none', async (t) => {
  const plugin = notionPlugin({ baseUrl: fake.baseUrl });
  const deliver = plugin.integrations![0]!.deliver;
  const ctx = { events: {}, http: { fetch: globalThis.fetch } } as never;
  const delivery = (responseId: string, database: string, maybeDelivered: boolean) =>
    ({
      id: `ind_${responseId}`, event: 'response.submitted', attempt: maybeDelivered ? 2 : 1, maybeDelivered,
      integration: { id: 'int_1', type: 'notion', name: 'Notion', form_id: 'frm_1' }, config: { database }, secrets: { token: TOKEN },
      form: { id: 'frm_1', title: 'Crash' }, answers: [a('Name', 'short_text', 'Ada', 'Ada')],
      payload: { response_id: responseId, submitted_at: '2026-12-06T07:30:00.000Z' },
    }) as never;
  const db = fake.databases.get(DB)!;
  // The first attempt reached Notion; the instance stopped before it recorded that.
  t.like(await deliver(delivery('rsp_crash', DB, false), ctx), { ok: true });
  const before = db.pages.length;
  const retried = await deliver(delivery('rsp_crash', DB, true), ctx);
  t.like(retried, { ok: true, status: 200 });
  t.regex(retried.body ?? '', /^Found page https:\/\/www\.notion\.so\/[0-9a-f]{32}, made before a restart$/);
  t.falsy(retried.mayRepeat);
  t.is(db.pages.length, before, 'no second page');
  const query = fake.calls.at(-1)!;
  t.is(query.path, `/v1/data_sources/${db.dataSourceId}/query`);
  t.deepEqual(query.body.filter, { property: 'Response ID', rich_text: { equals: 'rsp_crash' } });
  // A retry whose first attempt never arrived makes its page, once.
  t.like(await deliver(delivery('rsp_lost', DB, true), ctx), { ok: true });
  t.is(db.pages.filter((p) => p.properties['Response ID']?.rich_text[0].text.content === 'rsp_lost').length, 1);

  // A database without a "Response ID" property has nothing to look in: the page is made, and said to maybe repeat.
  const bare = 'bbbbbbbb-cdef-abcd-efab-cdefabcdefab';
  const other = fake.addDatabase(bare, [TOKEN], { Name: { type: 'title' } });
  t.like(await deliver(delivery('rsp_bare', bare, true), ctx), { ok: true, mayRepeat: true });
  t.is(other.pages.length, 1);
});

test('a database is found in its address or by its id', (t) => {
  t.is(databaseIdOf('https://www.notion.so/acme/Leads-0f1e2d3c4b5a69788796a5b4c3d2e1f0?v=123abc'), DB);
  t.is(databaseIdOf('0f1e2d3c4b5a69788796a5b4c3d2e1f0'), DB);
  t.is(databaseIdOf(DB.toUpperCase()), DB);
  t.is(databaseIdOf('https://www.notion.so/acme/Leads'), null);
  t.is(databaseIdOf('nope'), null);
});

test.serial('in an embedded host (createFormloom with the plugin, the host running the outbox): a response becomes a page', async (t) => {
  const host = await startPluginHost([notionPlugin({ baseUrl: fake.baseUrl })]);
  t.teardown(() => host.close());
  const id = 'abcdefab-cdef-abcd-efab-cdefabcdefab';
  const db = fake.addDatabase(id, [TOKEN], { Name: { type: 'title' }, Rating: { type: 'number' } });
  const form = (await host.call('POST', '/api/v1/forms', { title: 'Host form', published: true, questions: [{ type: 'short_text', title: 'Name' }, { type: 'rating', title: 'Rating' }] })).body;
  t.is((await host.call('POST', `/api/v1/forms/${form.id}/integrations`, { type: 'notion', config: { database: id, token: TOKEN } })).status, 201);
  const [name, rating] = form.questions.map((q: { id: string }) => q.id);
  await host.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: name, value: 'Ada' }, { question_id: rating, value: 4 }] }, null);
  await waitFor(() => db.pages.length === 1, { intervalMs: 50 });
  t.deepEqual(db.pages[0]!.properties, { Name: { title: [{ type: 'text', text: { content: 'Ada' } }] }, Rating: { number: 4 } });
});
