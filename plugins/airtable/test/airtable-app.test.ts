import { resolve } from 'node:path';
import test from 'ava';
import { FakeAirtable } from './helpers/fake-airtable';
import { selfHostedPerKind, until } from '@formloom/self-hosted/dist/src/testing';

// The plugin as an operator runs it (formloom.config.mjs of the self-hosted app), configured and tested
// through the HTTP API, delivering to a local server speaking Airtable's API. One app per database.

const PLUGIN = resolve(__dirname, '../src/index.js');
const KINDS = ['sqlite', 'postgres'] as const;
const TOKEN = 'patFormloomAppTest.0123456789';

/** The app of each kind with its own Airtable stand-in (the two databases' tests run at once). */
const { setupFor, closeAll } = selfHostedPerKind(PLUGIN, 'airtablePlugin', () => FakeAirtable.start(), (fake) => ({ endpointUrl: fake.endpointUrl }));
test.after.always(closeAll);

for (const kind of KINDS) {
  test(`[${kind}] configured in the API, "Send test", a record per response, Airtable down and back, an unknown field final`, async (t) => {
    const { f, fake } = await setupFor(kind);
    const baseId = 'appFormloomTest01';
    const table = fake.addTable(baseId, [TOKEN], 'Signups', { Name: 'singleLineText', Plan: 'singleSelect', Seats: 'number', Newsletter: 'checkbox', Topics: 'multipleSelects' });
    const form = (await f.call('POST', '/api/v1/forms', {
      title: 'Signups',
      published: true,
      questions: [
        { type: 'short_text', title: 'Your name' },
        { type: 'dropdown', title: 'Plan', properties: { choices: [{ label: 'Team' }, { label: 'Solo' }] } },
        { type: 'number', title: 'Seats' },
        { type: 'yes_no', title: 'Newsletter' },
        { type: 'multiple_choice', title: 'Topics', properties: { allow_multiple: true, choices: [{ label: 'Forms' }, { label: 'Signing' }] } },
      ],
    })).body;
    const [name, plan, seats, news, topics] = form.questions.map((q: { id: string }) => q.id);
    const base = `/api/v1/forms/${form.id}/integrations`;
    const config = { base: `https://airtable.com/${baseId}/${table.id}/viwAbc`, table: '', token: TOKEN };

    t.like((await f.call('POST', base, { type: 'airtable', config: { ...config, base: 'my base' } })).body.error, { status: 400, field: 'config.base' });
    t.like((await f.call('POST', base, { type: 'airtable', config: { ...config, base: baseId } })).body.error, { status: 400, field: 'config.table' });
    const fields = [{ question_id: name, name: 'Name' }, { question_id: plan }, { question_id: seats }, { question_id: news }, { question_id: topics }];
    const created = await f.call('POST', base, { type: 'airtable', name: 'CRM', config, fields });
    t.is(created.status, 201);
    t.deepEqual(created.body.secrets_set, ['token']);
    const one = `${base}/${created.body.id}`;

    const tested = await f.call('POST', `${one}/test`);
    t.like(tested.body, { ok: true, response_code: 200, error: null });
    t.regex(tested.body.response_excerpt, /^Created record rec/);

    const submit = async (n: string, extra: Array<{ question_id: string; value: unknown }> = []) => {
      const answers = [{ question_id: name, value: n }, { question_id: plan, value: 'Team' }, { question_id: seats, value: 5 }, { question_id: news, value: true }, { question_id: topics, value: ['Forms', 'Signing'] }, ...extra];
      const r = await f.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers }, null);
      t.is(r.status, 201);
      return r.body.id as string;
    };
    await submit('Ada');
    await until(() => table.records.length === 2);
    t.deepEqual(table.records[1]!.fields, { Name: 'Ada', Plan: 'Team', Seats: 5, Newsletter: true, Topics: ['Forms', 'Signing'] });

    // Airtable is down (503), then back: the delivery waits in the log and lands once when sent again.
    const log = async () => (await f.call('GET', `${one}/deliveries`)).body.deliveries as Array<{ id: string; response_id: string; status: string; response_code: number; error: string }>;
    fake.fail(1, 503, 'SERVICE_UNAVAILABLE');
    const grace = await submit('Grace');
    const waiting = await until(async () => (await log()).find((d) => d.response_id === grace && d.status === 'pending' && d.response_code === 503));
    t.is((await f.call('POST', `${one}/deliveries/${waiting.id}/retry`)).status, 202);
    await until(async () => (await log()).find((d) => d.response_id === grace)?.status === 'delivered');
    t.deepEqual(table.records.map((r) => r.fields.Name).slice(1), ['Ada', 'Grace']);

    // A column renamed in Airtable: its 422 is final, with Airtable's reason in the log.
    table.fields = { ...table.fields, Seat: 'number' };
    delete table.fields.Seats;
    const linus = await submit('Linus');
    const refused = await until(async () => (await log()).find((d) => d.response_id === linus && d.status === 'failed'));
    t.like(refused, { response_code: 422, error: 'HTTP 422: UNKNOWN_FIELD_NAME: Unknown field name: "Seats"' });
    t.is(table.records.length, 3);
  });
}
