import { resolve } from 'node:path';
import test from 'ava';
import { FakeGoogleSheets } from './helpers/fake-google-sheets';
import { selfHostedPerKind, until } from '@formloom/self-hosted/dist/src/testing';

// The plugin as an operator runs it (formloom.config.mjs of the self-hosted app), configured and tested
// through the HTTP API, delivering to a local server speaking Google's API. One app per database.

const PLUGIN = resolve(__dirname, '../src/index.js');
const KINDS = ['sqlite', 'postgres'] as const;
/** The app of each kind with its own Google stand-in (the two databases' tests run at once). */
const { setupFor, closeAll } = selfHostedPerKind(PLUGIN, 'googleSheetsPlugin', () => FakeGoogleSheets.start(), (fake) => ({ rootUrl: fake.rootUrl }));
test.after.always(closeAll);

for (const kind of KINDS) {
  test(`[${kind}] configured in the API, "Send test", a row per response, a failing Google retried from the log, a sheet not shared failing for good`, async (t) => {
    const { f, fake } = await setupFor(kind);
    const account = fake.serviceAccount();
    const sheetId = `1Sheet${kind}0123456789abcdef`;
    fake.addSpreadsheet(sheetId, [account.email]);
    const types = (await f.call('GET', '/api/v1/integrations/types')).body.types;
    t.like(types.find((x: { type: string }) => x.type === 'google-sheets'), { title: 'Google Sheets', plugin: 'google-sheets' });

    const form = (await f.call('POST', '/api/v1/forms', { title: 'Orders', published: true, questions: [{ type: 'short_text', title: 'Name' }, { type: 'number', title: 'Quantity' }, { type: 'yes_no', title: 'Gift wrap?' }] })).body;
    const [name, qty, gift] = form.questions.map((q: { id: string }) => q.id);
    const base = `/api/v1/forms/${form.id}/integrations`;
    const config = { spreadsheet: `https://docs.google.com/spreadsheets/d/${sheetId}/edit#gid=0`, sheet: '', service_account_key: account.keyFile };

    // Settings the plugin checks: a 400 naming the field, nothing stored.
    t.like((await f.call('POST', base, { type: 'google-sheets', config: { ...config, spreadsheet: 'my sheet' } })).body.error, { status: 400, field: 'config.spreadsheet' });
    t.like((await f.call('POST', base, { type: 'google-sheets', config: { ...config, service_account_key: '{"type":"user"}' } })).body.error, { status: 400, field: 'config.service_account_key' });
    const created = await f.call('POST', base, { type: 'google-sheets', name: 'Orders sheet', config, fields: [{ question_id: name, name: 'Customer' }, { question_id: qty }, { question_id: gift }] });
    t.is(created.status, 201);
    t.deepEqual(created.body.secrets_set, ['service_account_key']);
    t.false(JSON.stringify((await f.call('GET', base)).body).includes('PRIVATE KEY'), 'the key is never answered');
    const one = `${base}/${created.body.id}`;

    const tested = await f.call('POST', `${one}/test`);
    t.like(tested.body, { ok: true, response_code: 200, error: null });
    t.regex(tested.body.response_excerpt, /^Appended 'Sheet1'!A2:E2$/);
    t.deepEqual(fake.rows(sheetId)[0], ['Submitted at', 'Response ID', 'Customer', 'Quantity', 'Gift wrap?']);

    const submit = async (n: string, q: number, g: boolean) => {
      const r = await f.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: name, value: n }, { question_id: qty, value: q }, { question_id: gift, value: g }] }, null);
      t.is(r.status, 201);
      return r.body.id as string;
    };
    const ada = await submit('Ada', 2, true);
    await until(() => fake.rows(sheetId).length === 3);
    t.deepEqual(fake.rows(sheetId)[2]!.slice(1), [ada, 'Ada', 2, 'Yes']);

    // Google answers 503: the delivery waits for its retry; sent again from the log, it lands once.
    fake.fail(1, 503, 'The service is currently unavailable.');
    const grace = await submit('Grace', 1, false);
    const log = async () => (await f.call('GET', `${one}/deliveries`)).body.deliveries as Array<{ id: string; response_id: string; status: string; response_code: number; error: string; attempts: number; next_attempt_at: string | null }>;
    const pending = await until(async () => (await log()).find((d) => d.response_id === grace && d.attempts >= 1 && d.status === 'pending'));
    t.like(pending, { response_code: 503 });
    t.truthy(pending.next_attempt_at);
    t.is((await f.call('POST', `${one}/deliveries/${pending.id}/retry`)).status, 202);
    await until(async () => (await log()).find((d) => d.response_id === grace)?.status === 'delivered');
    t.deepEqual(fake.rows(sheetId).slice(3).map((r) => r.slice(1)), [[grace, 'Grace', 1, 'No']]);

    // The spreadsheet is no longer shared with the service account: 403, failed for good, said in the log.
    fake.spreadsheets.get(sheetId)!.sharedWith.clear();
    const linus = await submit('Linus', 3, false);
    const refused = await until(async () => (await log()).find((d) => d.response_id === linus && d.status === 'failed'));
    t.like(refused, { response_code: 403 });
    t.regex(refused.error, /The caller does not have permission/);
    t.is(fake.rows(sheetId).length, 4);
  });
}
