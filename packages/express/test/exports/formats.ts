import { randomBytes } from 'node:crypto';
import test from '../helpers/bounded-test';
import { insertResponses, makeResponse, sameBytes } from '@formloom/core/testing';
import { download, sheetCells } from '../helpers/xlsx-cells';
import type { TestApp } from '../helpers/app';
import type { SharedDb } from '../helpers/shared-apps';

/*
 * GET /forms/:id/responses/export?format=csv|xlsx|json (docs/responses-and-webhooks.md, "Export formats"):
 * XLSX and JSON carry answers as the respondent saw them and their raw values; the CSV is unchanged.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function formWithResponses(app: TestApp, strings?: Record<string, string>) {
  const u = await app.user();
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Export formats',
      published: true,
      ...(strings ? { strings } : {}),
      questions: [
        { type: 'yes_no', title: 'Coming?' },
        { type: 'multiple_choice', title: 'Colours', properties: { choices: [{ label: 'Red' }, { label: 'Blue' }], allow_multiple: true } },
        { type: 'dropdown', title: 'City', properties: { choices: [{ label: 'Berlin' }, { label: 'Paris' }] } },
        { type: 'number', title: 'Age' },
        { type: 'date', title: 'Day' },
        { type: 'contact_info', title: 'Contact', properties: { fields: ['first_name', 'email'] } },
      ],
    },
  });
  t_assert(created.status === 201, JSON.stringify(created.body));
  const form = created.body;
  const [yes, colours, city, age, day, contact] = form.questions as Array<{ id: string }>;
  const send = async (answers: unknown[]) => {
    const r = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers } });
    t_assert(r.status === 201, JSON.stringify(r.body));
    return r.body.id as string;
  };
  const first = await send([
    { question_id: yes!.id, value: true },
    { question_id: colours!.id, value: ['Red', 'Blue'] },
    { question_id: city!.id, value: 'Berlin' },
    { question_id: age!.id, value: 41 },
    { question_id: day!.id, value: '2026-03-14' },
    { question_id: contact!.id, value: { first_name: 'Ada', email: 'ada@example.com' } },
  ]);
  const second = await send([
    { question_id: yes!.id, value: false },
    { question_id: city!.id, value: 'Paris' },
  ]);
  return { u, form, ids: { yes: yes!.id, colours: colours!.id, city: city!.id, age: age!.id, day: day!.id, contact: contact!.id }, first, second };
}

function t_assert(ok: boolean, message: string) {
  if (!ok) throw new Error(message);
}

/** exports.test.ts registers these on the apps its parts share (helpers/shared-apps.ts). */
export const register = (forEachDb: SharedDb) => forEachDb((it) => {
  it('export ?format=xlsx: one header row, labels as seen (yes/no in the page words), typed cells, raw columns; it parses back with exceljs', async (t, app) => {
    const { u, form, first, second } = await formWithResponses(app, { yes: 'Ja', no: 'Nein' });
    const res = await download(app, `/forms/${form.id}/responses/export?format=xlsx`, u.key);
    t.is(res.status, 200);
    t.is(res.type, XLSX);
    t.regex(res.disposition ?? '', /responses-.+\.xlsx/);
    const { names, rows } = await sheetCells(res.bytes);
    t.deepEqual(names, ['Responses']);
    t.deepEqual(rows[0], [
      'responseId', 'submittedAt', 'completedAt', 'Coming?', 'Colours', 'City', 'Age', 'Day', 'Contact - First name', 'Contact - Email', 'Coming? (raw)', 'Colours (raw)',
    ]);
    t.is(rows.length, 3);
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    const a = byId.get(first)!;
    t.true(a[1] instanceof Date);
    t.true(a[2] instanceof Date);
    t.deepEqual(a.slice(3), ['Ja', 'Red, Blue', 'Berlin', 41, new Date(Date.UTC(2026, 2, 14)), 'Ada', 'ada@example.com', true, '["Red","Blue"]']);
    const b = byId.get(second)!;
    t.deepEqual(b.slice(3), ['Nein', null, 'Paris', null, null, null, null, false, null]);
  });

  it('export ?format=json: an array of responses with each answer as label and raw value; English words without the owner\'s', async (t, app) => {
    const { u, form, ids, first, second } = await formWithResponses(app);
    const res = await app.api('GET', `/forms/${form.id}/responses/export?format=json`, { key: u.key });
    t.is(res.status, 200);
    t.regex(res.headers.get('content-type') ?? '', /^application\/json/);
    t.true(Array.isArray(res.body));
    const byId = new Map((res.body as Array<{ id: string }>).map((r) => [r.id, r]));
    t.deepEqual(new Set(byId.keys()), new Set([first, second]));
    const a = byId.get(first) as any;
    t.is(a.completed_at !== null, true);
    t.deepEqual(a.hidden_fields, {});
    t.deepEqual(a.answers, [
      { question_id: ids.yes, title: 'Coming?', label: 'Yes', value: true },
      { question_id: ids.colours, title: 'Colours', label: 'Red, Blue', value: ['Red', 'Blue'] },
      { question_id: ids.city, title: 'City', label: 'Berlin', value: 'Berlin' },
      { question_id: ids.age, title: 'Age', label: 41, value: 41 },
      { question_id: ids.day, title: 'Day', label: '2026-03-14', value: '2026-03-14' },
      { question_id: ids.contact, sub_field: 'first_name', title: 'Contact - First name', label: 'Ada', value: 'Ada' },
      { question_id: ids.contact, sub_field: 'email', title: 'Contact - Email', label: 'ada@example.com', value: 'ada@example.com' },
    ]);
    t.deepEqual((byId.get(second) as any).answers.map((x: any) => x.label), ['No', 'Paris']);
  });

  it('export: filters apply to xlsx and json as to csv; an unknown format is a 400; no key is a 401, another user a 404/403', async (t, app) => {
    const { u, form, first } = await formWithResponses(app);
    const json = await app.api('GET', `/forms/${form.id}/responses/export?format=json&search=berlin`, { key: u.key });
    t.is(json.status, 200);
    t.deepEqual((json.body as Array<{ id: string }>).map((r) => r.id), [first]);
    const xlsx = await download(app, `/forms/${form.id}/responses/export?format=xlsx&search=berlin`, u.key);
    t.deepEqual((await sheetCells(xlsx.bytes)).rows.slice(1).map((r) => r[0]), [first]);
    const csv = await app.api('GET', `/forms/${form.id}/responses/export?search=berlin`, { key: u.key });
    t.is(csv.text.trimEnd().split('\r\n').length, 2);
    const none = await app.api('GET', `/forms/${form.id}/responses/export?format=json&since=2001-01-01&until=2001-01-02`, { key: u.key });
    t.deepEqual(none.body, []);

    const bad = await app.api('GET', `/forms/${form.id}/responses/export?format=pdf`, { key: u.key });
    t.is(bad.status, 400);
    t.regex(JSON.stringify(bad.body), /format/);
    t.is((await download(app, `/forms/${form.id}/responses/export?format=xlsx`)).status, 401);
    const other = await app.user();
    t.true([403, 404].includes((await download(app, `/forms/${form.id}/responses/export?format=xlsx`, other.key)).status));
    t.true([403, 404].includes((await app.api('GET', `/forms/${form.id}/responses/export?format=json`, { key: other.key })).status));
  });

  it('export: xlsx and json stream every response once across pages (1,201 responses, pages of 500), oldest first, with hidden fields', async (t, app) => {
    t.timeout(120_000);
    const u = await app.user();
    const created = await app.api('POST', '/forms', {
      key: u.key,
      body: { title: 'Many', published: true, hidden_fields: ['utm'], questions: [{ type: 'yes_no', title: 'Ok?' }, { type: 'number', title: 'N' }] },
    });
    t.is(created.status, 201, JSON.stringify(created.body));
    const form = created.body;
    const [ok, n] = form.questions as Array<{ id: string }>;
    const seeded = Array.from({ length: 1201 }, (_, i) =>
      makeResponse(form.id, i, {
        answers: [{ question_id: ok!.id, value: i % 2 === 0 }, { question_id: n!.id, value: i }],
        metadata: { user_agent: 'test', referrer: null, hidden: { utm: `src${i}` } },
      }),
    );
    const ids = seeded.map((r) => r.id);
    await insertResponses(app.formloom.storage, seeded);
    const json = await app.api('GET', `/forms/${form.id}/responses/export?format=json`, { key: u.key });
    t.is(json.status, 200);
    const rows = json.body as Array<{ id: string; answers: Array<{ label: unknown; value: unknown }>; hidden_fields: Record<string, unknown> }>;
    t.deepEqual(rows.map((r) => r.id), ids);
    t.deepEqual(rows[1200]!.answers.map((a) => [a.label, a.value]), [['Yes', true], [1200, 1200]]);
    t.deepEqual(rows[7]!.hidden_fields, { utm: 'src7' });

    const xlsx = await download(app, `/forms/${form.id}/responses/export?format=xlsx`, u.key);
    const { rows: cells } = await sheetCells(xlsx.bytes);
    t.deepEqual(cells[0], ['responseId', 'submittedAt', 'completedAt', 'Ok?', 'N', 'utm', 'Ok? (raw)']);
    t.deepEqual(cells.slice(1).map((r) => r[0]), ids);
    t.deepEqual(cells[2]!.slice(3), ['No', 1, 'src1', false]);
  });

  it('export: a client that leaves an xlsx or json download mid-way leaves the server exporting as before', async (t, app) => {
    t.timeout(120_000);
    const u = await app.user();
    const created = await app.api('POST', '/forms', { key: u.key, body: { title: 'Left', published: true, questions: [{ type: 'long_text', title: 'Text' }] } });
    const form = created.body;
    // Text that does not compress, so the XLSX too is megabytes and the client leaves it mid-way.
    const text = randomBytes(1000).toString('hex');
    await insertResponses(app.formloom.storage, Array.from({ length: 1500 }, (_, i) => makeResponse(form.id, i, { answers: [{ question_id: form.questions[0].id, value: `${i}${text}` }] })));
    for (const format of ['xlsx', 'json', 'xlsx', 'json']) {
      const stop = new AbortController();
      const res = await fetch(`${app.url}/api/v1/forms/${form.id}/responses/export?format=${format}`, { headers: { authorization: `Bearer ${u.key}` }, signal: stop.signal });
      t.is(res.status, 200);
      const reader = res.body!.getReader();
      t.false((await reader.read()).done);
      stop.abort();
      await reader.read().catch(() => undefined);
    }
    // The pages the left exports held are released: whole exports still come, on PostgreSQL's own connections too.
    const json = await app.api('GET', `/forms/${form.id}/responses/export?format=json`, { key: u.key });
    t.is((json.body as unknown[]).length, 1500);
    const xlsx = await download(app, `/forms/${form.id}/responses/export?format=xlsx`, u.key);
    t.is((await sheetCells(xlsx.bytes)).rows.length, 1501);
  });

  it('export ?format=csv is the CSV of no format, byte for byte (yes/no stays true/false there)', async (t, app) => {
    const { u, form } = await formWithResponses(app);
    const plain = await download(app, `/forms/${form.id}/responses/export`, u.key);
    const csv = await download(app, `/forms/${form.id}/responses/export?format=csv`, u.key);
    t.is(csv.status, 200);
    t.is(csv.type, plain.type);
    sameBytes(t, csv.bytes, plain.bytes);
    t.regex(plain.bytes.toString('utf8'), /,true,/);
  });
});
