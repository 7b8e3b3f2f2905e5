import test from 'ava';
import { generateKeyPairSync } from 'node:crypto';
import { SheetsClient } from '../src/sheets-client';
import { parseServiceAccountKey, spreadsheetIdOf, type ServiceAccountKey } from '../src/service-account';
import type { RowAnswer } from '../src/sheets-row';
import { integrationHttp, type FormloomConfig } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { createHttpWebhookTransport } from '@formloom/webhook-http';
import { googleSheetsPlugin } from '../src/index';
import { FakeGoogleSheets } from './helpers/fake-google-sheets';
import { startPluginHost } from '@formloom/self-hosted/dist/src/testing';

// The SDK against a local server speaking Google's token endpoint and the Sheets API (the true boundary).

const SHEET_ID = '1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
let fake: FakeGoogleSheets;
let key: ServiceAccountKey;
let keyFile: string;
let client: SheetsClient;

test.before(async () => {
  fake = await FakeGoogleSheets.start();
  const account = fake.serviceAccount();
  keyFile = account.keyFile;
  key = parseServiceAccountKey(keyFile) as ServiceAccountKey;
  fake.addSpreadsheet(SHEET_ID, [account.email], { Sheet1: [], "Q3 'answers'": [['Submitted at', 'Response ID', 'City']] });
  client = new SheetsClient({ fetch: globalThis.fetch, rootUrl: fake.rootUrl });
});
test.after.always(() => fake?.close());

const answer = (name: string, type: string, value: unknown, text: string, extra: Partial<RowAnswer> = {}): RowAnswer => ({ name, type, value, text, ...extra });

test.serial('an empty sheet gets the header row, then a row per response; numbers stay numbers, formulas stay text', async (t) => {
  const first = await client.append(key, { spreadsheetId: SHEET_ID, sheet: '' }, {
    response_id: 'rsp_1',
    submitted_at: '2026-12-06T07:00:00.000Z',
    answers: [
      answer('Name', 'short_text', '=HYPERLINK("http://x")', '=HYPERLINK("http://x")'),
      answer('Score', 'opinion_scale', 9, '9'),
      answer('Subscribe?', 'yes_no', true, 'Yes'),
      answer('CV', 'file_upload', { name: 'cv.pdf', url: 'https://f.example/cv' }, 'cv.pdf', { file_url: 'https://f.example/cv' }),
    ],
  });
  t.like(first, { ok: true, status: 200, retry: false });
  t.regex(first.body ?? '', /^Appended 'Sheet1'!A2:F2$/);
  await client.append(key, { spreadsheetId: SHEET_ID, sheet: '' }, {
    response_id: 'rsp_2',
    submitted_at: '2026-12-06T07:01:00.000Z',
    answers: [answer('Score', 'opinion_scale', 3, '3'), answer('Name', 'short_text', 'Ada', 'Ada'), answer('City', 'dropdown', 'Berlin', 'Berlin')],
  });
  t.deepEqual(fake.rows(SHEET_ID), [
    ['Submitted at', 'Response ID', 'Name', 'Score', 'Subscribe?', 'CV', 'City'],
    ['2026-12-06T07:00:00.000Z', 'rsp_1', '=HYPERLINK("http://x")', 9, 'Yes', 'https://f.example/cv'],
    ['2026-12-06T07:01:00.000Z', 'rsp_2', 'Ada', 3, '', '', 'Berlin'],
  ]);
  // Values are sent RAW (never evaluated), and one token serves every call of the hour.
  t.true(fake.calls.filter((c) => c.method !== 'GET').every((c) => c.query.valueInputOption === 'RAW'));
  t.is(fake.tokenRequests, 1);
});

test.serial('a named sheet with quotes in its name keeps its header and gets the row under it', async (t) => {
  const out = await client.append(key, { spreadsheetId: SHEET_ID, sheet: "Q3 'answers'" }, { response_id: 'rsp_3', submitted_at: '2026-12-06T08:00:00.000Z', answers: [answer('City', 'short_text', 'Oslo', 'Oslo')] });
  t.true(out.ok);
  t.deepEqual(fake.rows(SHEET_ID, "Q3 'answers'"), [['Submitted at', 'Response ID', 'City'], ['2026-12-06T08:00:00.000Z', 'rsp_3', 'Oslo']]);
  t.false(fake.calls.some((c) => c.method === 'PUT' && c.path.includes('Q3')), 'a header that has every name is not rewritten');
});

test.serial('a retry after a restart that may follow a row appended already finds the response id in its column and appends none', async (t) => {
  const sheet = 'Crash';
  fake.addSheet(SHEET_ID, sheet, [['City', 'Submitted at', 'Name', 'Response ID']]);
  const target = { spreadsheetId: SHEET_ID, sheet };
  const input = (response_id: string) => ({ response_id, submitted_at: '2026-12-06T10:00:00.000Z', answers: [answer('City', 'short_text', 'Oslo', 'Oslo')] });
  t.true(googleSheetsPlugin().integrations![0]!.deduplicates);
  // The first attempt reached the sheet; the instance stopped before it recorded that.
  t.true((await client.append(key, target, input('rsp_crash'))).ok);
  const retried = await client.append(key, target, input('rsp_crash'), true);
  t.like(retried, { ok: true, status: 200, body: 'Found row 2, appended before a restart' });
  t.is(fake.calls.at(-1)!.path, `/v4/spreadsheets/${SHEET_ID}/values/'Crash'!D:D`, 'the Response ID column alone is read');
  t.is(fake.rows(SHEET_ID, sheet).length, 2, 'no second row');
  // A retry whose first attempt never arrived appends its row, once.
  t.true((await client.append(key, target, input('rsp_lost'), true)).ok);
  t.deepEqual(fake.rows(SHEET_ID, sheet).map((r) => r[3]), ['Response ID', 'rsp_crash', 'rsp_lost']);
});

test.serial('4xx answers are final; 429 and 5xx are retried after Retry-After; no answer is retried', async (t) => {
  const target = { spreadsheetId: SHEET_ID, sheet: '' };
  const input = { response_id: 'rsp_x', submitted_at: '2026-12-06T09:00:00.000Z', answers: [] };
  const before = fake.rows(SHEET_ID).length;

  fake.fail(1, 429, 'Quota exceeded', { 'retry-after': '30' });
  t.like(await client.append(key, target, input), { ok: false, status: 429, retry: true, retryAfterMs: 30_000 });
  fake.fail(1, 503, 'The service is currently unavailable.');
  const unavailable = await client.append(key, target, input);
  t.like(unavailable, { ok: false, status: 503, retry: true, error: 'HTTP 503: The service is currently unavailable.' });
  t.is(unavailable.retryAfterMs, undefined);

  const other = '1ZZZotherSpreadsheetNotShared000';
  fake.addSpreadsheet(other, ['someone-else@example.iam.gserviceaccount.com']);
  t.like(await client.append(key, { spreadsheetId: other, sheet: '' }, input), { ok: false, status: 403, retry: false, error: 'HTTP 403: The caller does not have permission' });
  t.like(await client.append(key, { spreadsheetId: '1NoSuchSpreadsheet00000000', sheet: '' }, input), { ok: false, status: 404, retry: false });
  t.like(await client.append(key, { spreadsheetId: SHEET_ID, sheet: 'Missing tab' }, input), { ok: false, status: 400, retry: false });

  // A key Google does not know (its signature does not verify): the token endpoint's 400 is final.
  const stranger = { ...key, private_key: generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  t.like(await client.append(stranger, target, input), { ok: false, status: 400, retry: false, error: 'HTTP 400: invalid_grant: Invalid JWT Signature.' });

  // Nothing listening: no status, tried again.
  const down = new SheetsClient({ fetch: globalThis.fetch, rootUrl: 'http://127.0.0.1:9/' });
  t.like(await down.append(key, target, input), { ok: false, status: null, retry: true });
  t.is(fake.rows(SHEET_ID).length, before, 'no failed attempt wrote a row');
});

test.serial("through Formloom's guarded fetch (ctx.http), a key naming a private token address is refused before anything is sent", async (t) => {
  const guarded = integrationHttp(() => createHttpWebhookTransport({ allowPrivate: false }), { webhookTimeoutMs: 10_000 } as FormloomConfig);
  const calls = fake.calls.length;
  const tokens = fake.tokenRequests;
  // The key names a token address on this machine (the stand-in): refused before any byte is sent.
  const viaGuard = new SheetsClient({ fetch: guarded.fetch });
  await t.throwsAsync(viaGuard.append(key, { spreadsheetId: SHEET_ID, sheet: '' }, { response_id: 'rsp_g', submitted_at: '2026-12-06T09:00:00.000Z', answers: [] }), { code: 'DESTINATION_REFUSED' } as never);
  t.is(fake.tokenRequests, tokens);
  t.is(fake.calls.length, calls);
});

test('the settings: a key file is checked, a spreadsheet is found in its address', (t) => {
  t.regex(String(parseServiceAccountKey('not json')), /whole JSON key/);
  t.regex(String(parseServiceAccountKey(JSON.stringify({ type: 'authorized_user' }))), /not a service account/);
  t.regex(String(parseServiceAccountKey(JSON.stringify({ type: 'service_account', client_email: 'a@b.c' }))), /private_key/);
  const parsed = parseServiceAccountKey(JSON.stringify({ type: 'service_account', client_email: 'a@b.c', private_key: '-----BEGIN PRIVATE KEY-----\n' }));
  t.like(parsed, { client_email: 'a@b.c', token_uri: 'https://oauth2.googleapis.com/token' });
  t.is(spreadsheetIdOf(`https://docs.google.com/spreadsheets/d/${SHEET_ID}/edit#gid=0`), SHEET_ID);
  t.is(spreadsheetIdOf(` ${SHEET_ID} `), SHEET_ID);
  t.is(spreadsheetIdOf('https://example.com/nope'), null);
});

test.serial('in an embedded host (createFormloom with the plugin, the host running the outbox): a response becomes a row', async (t) => {
  const host = await startPluginHost([googleSheetsPlugin({ rootUrl: fake.rootUrl })]);
  t.teardown(() => host.close());
  const id = '1EmbeddedHostSheet0123456789';
  fake.addSpreadsheet(id, [key.client_email]);
  const form = (await host.call('POST', '/api/v1/forms', { title: 'Host form', published: true, questions: [{ type: 'short_text', title: 'Name' }] })).body;
  t.is((await host.call('POST', `/api/v1/forms/${form.id}/integrations`, { type: 'google-sheets', config: { spreadsheet: id, service_account_key: keyFile } })).status, 201);
  const sent = await host.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] }, null);
  await waitFor(() => fake.rows(id).length === 2, { intervalMs: 50 });
  t.deepEqual(fake.rows(id), [['Submitted at', 'Response ID', 'Name'], [sent.body.submitted_at, sent.body.id, 'Ada']]);
});
