import test from 'ava';
import { AirtableWriter } from '../src/airtable-client';
import { baseIdOf, tableOf, type RecordAnswer } from '../src/airtable-fields';
import { waitFor } from '@formloom/core/testing';
import { airtablePlugin } from '../src/index';
import { FakeAirtable } from './helpers/fake-airtable';
import { startPluginHost } from '@formloom/self-hosted/dist/src/testing';

// The SDK against a local server speaking Airtable's API (the true boundary).

const TOKEN = 'patFormloomTest.0123456789abcdef';
const BASE = 'appA1b2C3d4E5f6G7';
let fake: FakeAirtable;
let writer: AirtableWriter;

test.before(async () => {
  fake = await FakeAirtable.start();
  fake.addTable(BASE, [TOKEN], 'Responses', {
    Name: 'singleLineText',
    Email: 'email',
    Score: 'number',
    City: 'singleSelect',
    Toppings: 'multipleSelects',
    Subscribed: 'checkbox',
    'Visit date': 'date',
    CV: 'multipleAttachments',
  });
  writer = new AirtableWriter({ endpointUrl: fake.endpointUrl });
});
test.after.always(() => fake?.close());

const a = (name: string, type: string, value: unknown, text: string, extra: Partial<RecordAnswer> = {}): RecordAnswer => ({ name, type, value, text, ...extra });

test.serial('a record per response: fields by name, typecast turning text into options and dates', async (t) => {
  const out = await writer.createRecord(TOKEN, BASE, 'Responses', [
    a('Name', 'short_text', 'Ada', 'Ada'),
    a('Email', 'email', 'ada@example.com', 'ada@example.com'),
    a('Score', 'rating', 4, '4'),
    a('City', 'dropdown', 'Berlin', 'Berlin'),
    a('Toppings', 'multiple_choice', ['Olives', 'Basil'], 'Olives and Basil'),
    a('Subscribed', 'yes_no', false, 'No'),
    a('Visit date', 'date', '2026-12-24', 'December 24, 2026'),
    a('CV', 'file_upload', { name: 'cv.pdf', url: 'https://f.example/cv' }, 'cv.pdf', { file_url: 'https://f.example/cv' }),
    a('Unanswered', 'short_text', null, ''),
  ]);
  t.like(out, { ok: true, status: 200 });
  t.regex(out.body ?? '', /^Created record rec[A-Za-z0-9]{14}$/);
  const call = fake.calls.at(-1)!;
  t.is(call.path, `/v0/${BASE}/Responses/`);
  t.true(call.body.typecast);
  t.deepEqual(call.body.fields, {
    Name: 'Ada',
    Email: 'ada@example.com',
    Score: 4,
    City: 'Berlin',
    Toppings: ['Olives', 'Basil'],
    Subscribed: false,
    'Visit date': '2026-12-24',
    CV: [{ url: 'https://f.example/cv', filename: 'cv.pdf' }],
  });
  t.is(fake.bases.get(BASE)!.tables[0]!.records.length, 1);
});

test.serial('4xx answers are final (with Airtable\'s reason); 429 waits 30 s; 5xx and no answer are retried', async (t) => {
  const records = () => fake.bases.get(BASE)!.tables[0]!.records.length;
  const before = records();
  t.like(await writer.createRecord(TOKEN, BASE, 'Responses', [a('Colour', 'short_text', 'Blue', 'Blue')]), {
    ok: false,
    status: 422,
    retry: false,
    error: 'HTTP 422: UNKNOWN_FIELD_NAME: Unknown field name: "Colour"',
  });
  t.like(await writer.createRecord(TOKEN, BASE, 'Responses', [a('Score', 'short_text', 'lots', 'lots')]), { status: 422, retry: false, error: 'HTTP 422: INVALID_VALUE_FOR_COLUMN: Field "Score" cannot accept the provided value' });
  t.like(await writer.createRecord(TOKEN, BASE, 'Missing', []), { status: 404, retry: false });
  t.like(await writer.createRecord('patSomeoneElse.x', BASE, 'Responses', []), { status: 403, retry: false });
  t.like(await writer.createRecord('key_old_style', BASE, 'Responses', []), { status: 401, retry: false });
  fake.fail(1, 429, 'TOO_MANY_REQUESTS');
  t.like(await writer.createRecord(TOKEN, BASE, 'Responses', []), { status: 429, retry: true, retryAfterMs: 30_000 });
  fake.fail(1, 503, 'SERVICE_UNAVAILABLE');
  t.like(await writer.createRecord(TOKEN, BASE, 'Responses', []), { status: 503, retry: true });
  fake.fail(1, 502, 'BAD_GATEWAY');
  t.like(await writer.createRecord(TOKEN, BASE, 'Responses', []), { status: 502, retry: true });
  const down = new AirtableWriter({ endpointUrl: 'http://127.0.0.1:9' });
  t.like(await down.createRecord(TOKEN, BASE, 'Responses', []), { ok: false, status: null, retry: true });
  t.is(records(), before);
});

test.serial('a retry after a restart that may follow a record made already finds it by the Response ID field and makes none', async (t) => {
  const plugin = airtablePlugin({ endpointUrl: fake.endpointUrl });
  const type = plugin.integrations![0]!;
  t.true(type.deduplicates);
  const table = fake.addTable('appCrashRetry0001', [TOKEN], 'Crash', { Name: 'singleLineText', 'Response ID': 'singleLineText' });
  const delivery = (responseId: string, maybeDelivered: boolean, idField = 'Response ID') =>
    ({
      id: `ind_${responseId}`, event: 'response.submitted', attempt: maybeDelivered ? 2 : 1, maybeDelivered,
      integration: { id: 'int_1', type: 'airtable', name: 'Airtable', form_id: 'frm_1' },
      config: { base: 'appCrashRetry0001', table: 'Crash', id_field: idField }, secrets: { token: TOKEN },
      form: { id: 'frm_1', title: 'Crash' }, answers: [a('Name', 'short_text', 'Ada', 'Ada')],
      payload: { response_id: responseId, submitted_at: '2026-12-06T07:30:00.000Z' },
    }) as never;
  // The first attempt reached Airtable; the instance stopped before it recorded that.
  t.like(await type.deliver(delivery('rsp_crash', false), {} as never), { ok: true });
  t.deepEqual(table.records[0]!.fields, { Name: 'Ada', 'Response ID': 'rsp_crash' });
  const retried = await type.deliver(delivery('rsp_crash', true), {} as never);
  t.like(retried, { ok: true, status: 200, body: `Found record ${table.records[0]!.id}, made before a restart` });
  t.falsy(retried.mayRepeat);
  t.is(table.records.length, 1, 'no second record');
  t.like(fake.calls.at(-1), { method: 'GET', path: '/v0/appCrashRetry0001/Crash' });
  // A retry whose first attempt never arrived makes its record, once.
  t.like(await type.deliver(delivery('rsp_lost', true), {} as never), { ok: true });
  t.deepEqual(table.records.map((r) => r.fields['Response ID']), ['rsp_crash', 'rsp_lost']);
  // Without a Response ID field there is nothing to look in: the record is made, and said to maybe repeat.
  t.like(await type.deliver(delivery('rsp_bare', true, ''), {} as never), { ok: true, mayRepeat: true });
  t.is(table.records.length, 3);
});

test('a base and a table are found in an address or taken as given', (t) => {
  t.is(baseIdOf('https://airtable.com/appA1b2C3d4E5f6G7/tblZ9y8X7w6V5u4T3/viwQ?blocks=hide'), BASE);
  t.is(baseIdOf(BASE), BASE);
  t.is(baseIdOf('app123'), null);
  t.is(tableOf('https://airtable.com/appA1b2C3d4E5f6G7/tblZ9y8X7w6V5u4T3/viwQ'), 'tblZ9y8X7w6V5u4T3');
  t.is(tableOf(' Responses '), 'Responses');
  t.is(tableOf('https://example.com/x'), null);
  t.is(tableOf(''), null);
});

test.serial('in an embedded host (createFormloom with the plugin, the host running the outbox): a response becomes a record', async (t) => {
  const host = await startPluginHost([airtablePlugin({ endpointUrl: fake.endpointUrl })]);
  t.teardown(() => host.close());
  const table = fake.addTable('appEmbeddedHost01', [TOKEN], 'Leads', { Name: 'singleLineText', Score: 'number' });
  const form = (await host.call('POST', '/api/v1/forms', { title: 'Host form', published: true, questions: [{ type: 'short_text', title: 'Name' }, { type: 'number', title: 'Score' }] })).body;
  t.is((await host.call('POST', `/api/v1/forms/${form.id}/integrations`, { type: 'airtable', config: { base: 'appEmbeddedHost01', table: 'Leads', token: TOKEN } })).status, 201);
  const [name, score] = form.questions.map((q: { id: string }) => q.id);
  await host.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: name, value: 'Ada' }, { question_id: score, value: 7 }] }, null);
  await waitFor(() => table.records.length === 1, { intervalMs: 50 });
  t.deepEqual(table.records[0]!.fields, { Name: 'Ada', Score: 7 });
});
