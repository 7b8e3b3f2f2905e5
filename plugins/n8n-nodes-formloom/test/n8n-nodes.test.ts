import test from 'ava';
import { Formloom } from '../src/nodes/Formloom/Formloom.node';
import { n8nContext, testCredentials } from './helpers/n8n-context';
import { startTestApp, type TestApp } from './helpers/formloom-app';

// The nodes' own methods (execute, loadOptions, the trigger's webhook methods and webhook) against a running
// Formloom (the self-hosted app), through a stand-in for n8n's execution context: the true boundary.

const KINDS = ['sqlite', 'postgres'] as const;
const apps = new Map<string, Promise<TestApp>>();
const appFor = (kind: string) => {
  if (!apps.has(kind)) apps.set(kind, startTestApp(kind as (typeof KINDS)[number]));
  return apps.get(kind)!;
};
test.after.always(async () => {
  for (const app of apps.values()) await (await app).close();
});

async function formWithResponses(f: TestApp, title: string, answers: string[]) {
  const form = (await f.call('POST', '/api/v1/forms', { title, questions: [{ type: 'short_text', title: 'Your name' }, { type: 'yes_no', title: 'Coming?' }] })).body;
  await f.call('POST', `/api/v1/forms/${form.id}/publish`);
  const [name, coming] = form.questions.map((q: { id: string }) => q.id);
  for (const a of answers) {
    const r = await f.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: name, value: a }, { question_id: coming, value: true }] }, null);
    if (r.status !== 201) throw new Error(`submission: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return form as { id: string; slug: string; questions: Array<{ id: string }> };
}

for (const kind of KINDS) {
  test(`[${kind}] actions: the credentials test, forms listed and read, responses listed (limit, all, filters) and read`, async (t) => {
    const f = await appFor(kind);
    const credentials = { baseUrl: `${f.url}/`, apiKey: f.apiKey };
    const party = await formWithResponses(f, 'Party RSVP', ['Ada', 'Grace', 'Linus']);
    await formWithResponses(f, 'Feedback', []);

    await t.notThrowsAsync(testCredentials(credentials));
    await t.throwsAsync(testCredentials({ ...credentials, apiKey: 'fl_wrong' }), { message: /^401 - / });

    const node = new Formloom();
    const run = async (parameters: Record<string, unknown>, continueOnFail = false) => {
      const ctx = n8nContext({ credentials, parameters, continueOnFail });
      const [items] = await node.execute.call(ctx);
      return items!.map((i) => i.json as any);
    };
    const options = await node.methods.loadOptions.getForms.call(n8nContext({ credentials }));
    t.deepEqual(options.map((o) => o.name).sort(), ['Feedback', 'Party RSVP']);

    t.is((await run({ resource: 'form', operation: 'getAll', returnAll: true })).length, 2);
    t.deepEqual((await run({ resource: 'form', operation: 'getAll', returnAll: true, search: 'rsvp' })).map((f) => f.title), ['Party RSVP']);
    const [form] = await run({ resource: 'form', operation: 'get', formId: party.id });
    t.is(form.questions.length, 2);

    const two = await run({ resource: 'response', operation: 'getAll', formId: party.id, returnAll: false, limit: 2 });
    t.is(two.length, 2);
    const all = await run({ resource: 'response', operation: 'getAll', formId: party.id, returnAll: true, filters: { completed: true } });
    t.deepEqual(all.map((r) => r.answers_by_title['Your name']).sort(), ['Ada', 'Grace', 'Linus']);
    t.deepEqual(all[0].answers_by_title['Coming?'], true);
    t.deepEqual(await run({ resource: 'response', operation: 'getAll', formId: party.id, returnAll: true, filters: { since: '2999-01-01T00:00:00Z' } }), []);

    const [one] = await run({ resource: 'response', operation: 'get', formId: party.id, responseId: all[1].id });
    t.is(one.id, all[1].id);
    t.is(one.answers_by_title['Your name'], all[1].answers_by_title['Your name']);

    // A response that is not there: the API's 404 stops the node, or becomes an item with continueOnFail.
    const missing = { resource: 'response', operation: 'get', formId: party.id, responseId: 'rsp_nothere' };
    await t.throwsAsync(run(missing), { message: /^404 - / });
    t.regex((await run(missing, true))[0].error, /^404 - /);
  });
}
