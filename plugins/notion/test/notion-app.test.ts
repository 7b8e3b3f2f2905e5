import { resolve } from 'node:path';
import test from 'ava';
import { FakeNotion } from './helpers/fake-notion';
import { selfHostedPerKind, until } from '@formloom/self-hosted/dist/src/testing';

// The plugin as an operator runs it (formloom.config.mjs of the self-hosted app), configured and tested
// through the HTTP API, delivering to a local server speaking Notion's API. One app per database.

const PLUGIN = resolve(__dirname, '../src/index.js');
const KINDS = ['sqlite', 'postgres'] as const;
const TOKEN = 'ntn_formloom_app_test';

/** The app of each kind with its own Notion stand-in (the two databases' tests run at once). */
const { setupFor, closeAll } = selfHostedPerKind(PLUGIN, 'notionPlugin', () => FakeNotion.start(), (fake) => ({ baseUrl: fake.baseUrl }));
test.after.always(closeAll);

for (const kind of KINDS) {
  test(`[${kind}] configured in the API, "Send test", a page per response by property type, Notion's Retry-After honoured, a renamed property, a database no longer shared`, async (t) => {
    const { f, fake } = await setupFor(kind);
    const dbId = kind === 'sqlite' ? '11111111-2222-3333-4444-555555555555' : '66666666-7777-8888-9999-000000000000';
    const db = fake.addDatabase(dbId, [TOKEN], { Name: { type: 'title' }, Email: { type: 'email' }, Guests: { type: 'number' }, Menu: { type: 'select' }, 'Response ID': { type: 'rich_text' } });
    const form = (await f.call('POST', '/api/v1/forms', {
      title: 'Dinner',
      published: true,
      questions: [
        { type: 'short_text', title: 'Name' },
        { type: 'email', title: 'Email' },
        { type: 'number', title: 'How many guests?' },
        { type: 'dropdown', title: 'Menu', properties: { choices: [{ label: 'Fish' }, { label: 'Vegetarian' }] } },
      ],
    })).body;
    const [name, email, guests, menu] = form.questions.map((q: { id: string }) => q.id);
    const base = `/api/v1/forms/${form.id}/integrations`;
    const config = { database: `https://www.notion.so/acme/Dinner-${dbId.replace(/-/g, '')}?v=abc`, token: TOKEN };

    t.like((await f.call('POST', base, { type: 'notion', config: { ...config, database: 'my database' } })).body.error, { status: 400, field: 'config.database' });
    const created = await f.call('POST', base, { type: 'notion', name: 'Guests', config, fields: [{ question_id: name }, { question_id: email }, { question_id: guests, name: 'Guests' }, { question_id: menu }] });
    t.is(created.status, 201);
    t.deepEqual(created.body.secrets_set, ['token']);
    const one = `${base}/${created.body.id}`;

    const tested = await f.call('POST', `${one}/test`);
    t.like(tested.body, { ok: true, response_code: 200, error: null });
    t.regex(tested.body.response_excerpt, /^Created page https:\/\/www\.notion\.so\//);

    const submit = async (n: string, g: number) => {
      const answers = [{ question_id: name, value: n }, { question_id: email, value: `${n.toLowerCase()}@example.com` }, { question_id: guests, value: g }, { question_id: menu, value: 'Fish' }];
      const r = await f.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers }, null);
      t.is(r.status, 201);
      return r.body.id as string;
    };
    const ada = await submit('Ada', 2);
    await until(() => db.pages.length === 2);
    t.deepEqual(db.pages[1]!.properties, {
      Name: { title: [{ type: 'text', text: { content: 'Ada' } }] },
      Email: { email: 'ada@example.com' },
      Guests: { number: 2 },
      Menu: { select: { name: 'Fish' } },
      'Response ID': { rich_text: [{ type: 'text', text: { content: ada } }] },
    });

    // Notion is rate limiting: the next attempt comes no sooner than its Retry-After (an hour here).
    const log = async () => (await f.call('GET', `${one}/deliveries`)).body.deliveries as Array<{ id: string; response_id: string; status: string; response_code: number; error: string; next_attempt_at: string | null }>;
    fake.fail(1, 429, 'rate_limited', { 'retry-after': '3600' });
    const before = Date.now();
    const grace = await submit('Grace', 1);
    const waiting = await until(async () => (await log()).find((d) => d.response_id === grace && d.status === 'pending' && d.response_code === 429));
    t.true(Date.parse(waiting.next_attempt_at!) >= before + 3_500_000, `next attempt at ${waiting.next_attempt_at}`);
    // Sent again from the log once Notion is back: one page.
    t.is((await f.call('POST', `${one}/deliveries/${waiting.id}/retry`)).status, 202);
    await until(async () => (await log()).find((d) => d.response_id === grace)?.status === 'delivered');
    t.is(db.pages.length, 3);

    // A property renamed in Notion: the page is made with the properties read again ("Guests" left out).
    db.properties = { ...db.properties, 'Party size': db.properties.Guests! };
    delete db.properties.Guests;
    const linus = await submit('Linus', 3);
    await until(async () => (await log()).find((d) => d.response_id === linus)?.status === 'delivered');
    t.false('Guests' in db.pages[3]!.properties);
    // The database is no longer shared with the integration: Notion's 404 is final, said in the log.
    db.sharedWith.clear();
    const mary = await submit('Mary', 4);
    const refused = await until(async () => (await log()).find((d) => d.response_id === mary && d.status === 'failed'));
    t.like(refused, { response_code: 404 });
    t.regex(refused.error, /object_not_found/);
    t.is(db.pages.length, 4);
  });
}
