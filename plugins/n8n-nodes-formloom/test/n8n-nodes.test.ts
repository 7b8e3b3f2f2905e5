import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import test from 'ava';
import { waitFor } from '@formloom/core/testing';
import { Formloom } from '../src/nodes/Formloom/Formloom.node';
import { FormloomTrigger } from '../src/nodes/FormloomTrigger/FormloomTrigger.node';
import { n8nContext, testCredentials } from './helpers/n8n-context';
import { startTestSelfHosted as startTestApp, type TestInstance as TestApp } from '@formloom/self-hosted/dist/src/testing';

// The nodes' own methods (execute, loadOptions, the trigger's webhook methods and webhook) against a running
// Formloom (the self-hosted app), through a stand-in for n8n's execution context: the true boundary.

const KINDS = ['sqlite', 'postgres'] as const;
// The REST Hooks plugin as an operator lists it (the trigger subscribes through its routes).
const REST_HOOKS = resolve(__dirname, '../../../rest-hooks/dist/src/index.js');
const CONFIG = `import { restHooksPlugin } from ${JSON.stringify(REST_HOOKS)};\nexport default { plugins: [restHooksPlugin()] };\n`;
const apps = new Map<string, Promise<TestApp>>();
const appFor = (kind: string) => {
  if (!apps.has(kind)) apps.set(kind, startTestApp(kind as (typeof KINDS)[number], CONFIG));
  return apps.get(kind)!;
};

/** Where n8n would receive the webhook: a local server keeping each POSTed JSON body. */
async function webhookReceiver() {
  const bodies: unknown[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      res.end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook/abc/webhook`, bodies, close: () => new Promise((r) => server.close(r)) };
}
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
    // (The trigger's test adds its own form to the same app meanwhile.)
    t.true(['Feedback', 'Party RSVP'].every((n) => options.some((o) => o.name === n && o.value)));

    const allForms = (await run({ resource: 'form', operation: 'getAll', returnAll: true })).map((f) => f.title);
    t.true(['Feedback', 'Party RSVP'].every((n) => allForms.includes(n)));
    t.is((await run({ resource: 'form', operation: 'getAll', returnAll: false, limit: 1 })).length, 1);
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

for (const kind of KINDS) {
  test(`[${kind}] trigger: subscribes when the workflow is activated, a new response starts it as one item, unsubscribes when deactivated`, async (t) => {
    const f = await appFor(kind);
    const credentials = { baseUrl: f.url, apiKey: f.apiKey };
    const form = await formWithResponses(f, 'Waitlist', []);
    const receiver = await webhookReceiver();
    t.teardown(() => receiver.close());
    const trigger = new FormloomTrigger();
    const staticData = {};
    const hook = () => n8nContext({ credentials, parameters: { formId: form.id }, webhookUrl: receiver.url, staticData });
    const hooks = async () => (await f.call('GET', `/api/v1/forms/${form.id}/hooks`)).body.hooks as Array<{ id: string }>;

    // Activation: n8n asks whether the webhook exists, then creates it.
    t.false(await trigger.webhookMethods.default.checkExists.call(hook()));
    t.true(await trigger.webhookMethods.default.create.call(hook()));
    t.true(await trigger.webhookMethods.default.checkExists.call(hook()));
    t.deepEqual((await hooks()).map((h) => h.id), [(staticData as { subscriptionId: string }).subscriptionId]);

    const r = await f.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0]!.id, value: 'Ada' }, { question_id: form.questions[1]!.id, value: false }] }, null);
    t.is(r.status, 201);
    const [body] = await waitFor(() => receiver.bodies.length > 0 && receiver.bodies, { intervalMs: 50 });
    const out = await trigger.webhook.call(n8nContext({ credentials, body }));
    t.is(out.workflowData!.length, 1);
    t.is(out.workflowData![0]!.length, 1);
    t.like(out.workflowData![0]![0]!.json, { event: 'response.submitted', form_id: form.id, form_title: 'Waitlist', response_id: r.body.id, answers: { 'Your name': 'Ada', 'Coming?': 'No' } });

    // Deactivation unsubscribes; a second one (already gone) is fine.
    t.true(await trigger.webhookMethods.default.delete.call(hook()));
    t.deepEqual(await hooks(), []);
    t.false(await trigger.webhookMethods.default.checkExists.call(hook()));
    t.true(await trigger.webhookMethods.default.delete.call(hook()));
  });
}
