import test from '../helpers/bounded-test';
import { insertResponses, makeResponse } from '@formloom/core/testing';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * The responses list's `search` and keyset `cursor`, and the CSV export under the same filters
 * (docs/responses-and-webhooks.md, "Searching the answers", "Cursor paging").
 */

async function searchForm(app: TestApp, key: string) {
  const created = await app.api('POST', '/forms', {
    key,
    body: {
      title: 'Search me',
      published: true,
      incremental_submission: true,
      questions: [
        { type: 'short_text', title: 'Name' },
        { type: 'multiple_choice', title: 'Colours', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }], allow_multiple: true } },
        { type: 'contact_info', title: 'Contact', required: false, properties: { fields: ['first_name', 'email'] } },
        { type: 'number', title: 'Count', required: false },
      ],
    },
  });
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  const form = created.body;
  const [name, colours, contact, count] = form.questions.map((q: { id: string }) => q.id) as string[];
  const submit = async (values: { name: string; colours: string[]; contact?: object; count?: number }, completed = true) => {
    const answers = [
      { question_id: name, value: values.name },
      { question_id: colours, value: values.colours },
      ...(values.contact ? [{ question_id: contact, value: values.contact }] : []),
      ...(values.count === undefined ? [] : [{ question_id: count, value: values.count }]),
    ];
    const res = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers, ...(completed ? {} : { completed: false }) } });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as string;
  };
  const ada = await submit({ name: 'Ada Lovelace', colours: ['Red'], contact: { first_name: 'Ada', email: 'ada@example.com' }, count: 42 });
  const quote = await submit({ name: 'Say "hi" at 100%_off', colours: ['Red', 'Blue'] });
  const grace = await submit({ name: 'Grace', colours: ['Blue'], contact: { first_name: 'G', email: 'grace@example.org' }, count: 7 });
  const partial = await submit({ name: 'Ada the second', colours: ['Blue'] }, false);
  return { form, ids: { ada, quote, grace, partial } };
}

const ids = (body: { responses: Array<{ id: string }> }) => body.responses.map((r) => r.id).sort();

/** results.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('search matches answer values, ignoring case, never keys or question ids; wildcards are literal', async (t, app) => {
    const u = await app.user();
    const { form, ids: r } = await searchForm(app, u.key);
    const cases: Array<[string, string[]]> = [
      ['ada', [r.ada, r.partial]],
      ['LOVELACE', [r.ada]],
      ['example.org', [r.grace]],
      ['blue', [r.quote, r.grace, r.partial]],
      ['42', [r.ada]],
      ['"hi"', [r.quote]],
      ['100%_', [r.quote]],
      ['%', [r.quote]],
      ['_', [r.quote]],
      ['question_id', []],
      ['first_name', []],
      ['  grace  ', [r.grace]],
      ['nobody', []],
    ];
    for (const [search, expected] of cases) {
      const res = await app.api('GET', `/forms/${form.id}/responses?search=${encodeURIComponent(search)}`, { key: u.key });
      t.is(res.status, 200, search);
      t.deepEqual(ids(res.body), [...expected].sort(), search);
      t.is(res.body.total, expected.length, search);
    }
    const partialOnly = await app.api('GET', `/forms/${form.id}/responses?search=ada&completed=false`, { key: u.key });
    t.deepEqual(ids(partialOnly.body), [r.partial]);
    const empty = await app.api('GET', `/forms/${form.id}/responses?search=`, { key: u.key });
    t.is(empty.body.total, 4, 'an empty search filters nothing');

    const long = await app.api('GET', `/forms/${form.id}/responses?search=${'x'.repeat(201)}`, { key: u.key });
    t.is(long.status, 400);
    t.is(long.body.error.code, 'BAD_REQUEST');
    const twice = await app.api('GET', `/forms/${form.id}/responses?search=a&search=b`, { key: u.key });
    t.is(twice.status, 400);
    t.is(twice.body.error.code, 'BAD_REQUEST');
  });

  it('the CSV export applies the list filters: search, completed, since/until', async (t, app) => {
    const u = await app.user();
    const { form } = await searchForm(app, u.key);
    const rows = async (query: string) => {
      const res = await app.api('GET', `/forms/${form.id}/responses/export?${query}`, { key: u.key });
      t.is(res.status, 200, query);
      t.regex(res.headers.get('content-type') ?? '', /text\/csv/);
      return res.text.split('\r\n').filter(Boolean).slice(1);
    };
    t.is((await rows('')).length, 4);
    const ada = await rows('search=ADA');
    t.is(ada.length, 2);
    t.true(ada.every((line) => line.includes('Ada')));
    t.is((await rows('search=ada&completed=true')).length, 1);
    t.is((await rows('completed=false')).length, 1);
    t.is((await rows('search=%25')).length, 1, 'a literal percent sign');
    t.is((await rows('until=2000-01-01')).length, 0);
    const today = new Date().toISOString().slice(0, 10);
    t.is((await rows(`since=${today}&search=blue`)).length, 3);
    // Quotes and backslashes in a filter: on PostgreSQL the export's COPY carries them as literals
    // (storage-typeorm/src/sql/pg-copy.ts), and a NUL, which no literal can hold, reads by pages instead.
    const [name, colours] = form.questions.map((q: { id: string }) => q.id) as string[];
    const tricky = "O'Brien \\ said ''hi'' \\' E'x'";
    const sent = await app.api('POST', `/public/forms/${form.slug}/responses`, {
      body: { answers: [{ question_id: name, value: tricky }, { question_id: colours, value: ['Red'] }] },
    });
    t.is(sent.status, 201);
    for (const search of ["o'brien \\", "''hi''", "\\' e'x'", tricky]) {
      const found = await rows(`search=${encodeURIComponent(search)}`);
      t.is(found.length, 1, search);
      t.true(found[0]!.includes(tricky), search);
    }
    const list = await app.api('GET', `/forms/${form.id}/responses?search=%00`, { key: u.key });
    const exported = await app.api('GET', `/forms/${form.id}/responses/export?search=%00`, { key: u.key });
    t.is(exported.status, list.status, 'a NUL in the search: the export answers as the list does');
    for (const bad of ['completed=maybe', 'since=yesterday', `search=${'y'.repeat(201)}`]) {
      const res = await app.api('GET', `/forms/${form.id}/responses/export?${bad}`, { key: u.key });
      t.is(res.status, 400, bad);
      t.is(res.body.error.code, 'BAD_REQUEST', bad);
    }
  });

  it('cursor paging walks every response once, in order, with page numbers, under each filter', async (t, app) => {
    const u = await app.user();
    const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'Cursor', questions: [{ type: 'short_text', title: 'Name' }] } })).body;
    const base = Date.parse('2026-04-02T21:00:00.000Z');
    // 90 responses over two UTC days, 3 per instant (ties on submitted_at); every 4th partial; every 5th says "needle".
    const all = Array.from({ length: 90 }, (_, i) => {
      const when = new Date(base + Math.floor(i / 3) * 397_000).toISOString();
      return makeResponse(form.id, 0, {
        id: `rsp_cur_${app.kind}_${String((i * 37) % 90).padStart(3, '0')}`,
        submitted_at: when,
        completed_at: i % 4 === 0 ? null : when,
        answers: [{ question_id: form.questions[0].id, value: i % 5 === 0 ? `a Needle ${i}` : `hay ${i}` }],
      });
    });
    await insertResponses(app.formloom.storage, all);
    for (const query of ['', 'completed=true', 'search=needle', 'since=2026-04-03', `since=${new Date(base + 3_600_000).toISOString()}`]) {
      const byNumber: string[] = [];
      for (let page = 1; ; page++) {
        const res = await app.api('GET', `/forms/${form.id}/responses?${query}&per_page=100&page=${page}`, { key: u.key });
        byNumber.push(...res.body.responses.map((r: { id: string }) => r.id));
        if (res.body.responses.length < 100) break;
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const res: { status: number; body: any } = await app.api('GET', `/forms/${form.id}/responses?${query}&per_page=7${cursor ? `&cursor=${cursor}` : ''}`, { key: u.key });
        t.is(res.status, 200, query);
        page++;
        t.is(res.body.page, page, `${query}: page number`);
        t.is(res.body.total, byNumber.length, `${query}: total`);
        seen.push(...res.body.responses.map((r: { id: string }) => r.id));
        cursor = res.body.next_cursor;
        if (cursor) t.is(res.body.responses.length, 7);
      } while (cursor);
      t.deepEqual(seen, byNumber, `${query || 'no filter'}: the cursor pages are the numbered pages`);
      t.true(byNumber.length > 0);
    }
    const last = await app.api('GET', `/forms/${form.id}/responses?per_page=90`, { key: u.key });
    t.is(last.body.next_cursor, null, 'no next page after the last response');
  });

  it('a bad or foreign cursor is a 400 on cursor, in the documented shape', async (t, app) => {
    const u = await app.user();
    const { form } = await searchForm(app, u.key);
    const first = await app.api('GET', `/forms/${form.id}/responses?per_page=1&search=blue`, { key: u.key });
    const cursor: string = first.body.next_cursor;
    t.is(typeof cursor, 'string');
    const ok = await app.api('GET', `/forms/${form.id}/responses?per_page=1&search=blue&cursor=${cursor}`, { key: u.key });
    t.is(ok.status, 200);
    t.is(ok.body.page, 2);
    const forged = Buffer.from(JSON.stringify({ v: 1, s: 'yesterday', i: 'x', o: 1, f: 'x' })).toString('base64url');
    const bad = [
      'not a cursor!',
      'abc',
      forged,
      Buffer.from('[1,2]').toString('base64url'),
      cursor, // made with search=blue, used without it
    ];
    for (const c of bad) {
      const res = await app.api('GET', `/forms/${form.id}/responses?per_page=1&cursor=${encodeURIComponent(c)}`, { key: u.key });
      t.is(res.status, 400, c);
      t.is(res.body.error.code, 'BAD_REQUEST', c);
      t.is(res.body.error.field, 'cursor', c);
    }
  });
});
