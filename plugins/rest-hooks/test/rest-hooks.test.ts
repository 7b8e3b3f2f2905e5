import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { restHooksPlugin } from '../src';
import { startPluginHost, until, type TestInstance } from '@formloom/self-hosted/dist/src/testing';

/*
 * REST Hooks as Zapier, Make and n8n use them (docs/integrations.md): subscribe, sample, deliveries through
 * the outbox (a failing target retried), unsubscribe, and a 410 that unsubscribes; on SQLite and PostgreSQL.
 */

/** A subscriber's target URL, answering the queued statuses (then 200). */
async function target(statuses: number[] = []) {
  const got: any[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: JSON.parse(raw) });
      res.statusCode = statuses.shift() ?? 200;
      res.end(JSON.stringify({ status: res.statusCode === 200 ? 'success' : 'error' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/catch/123/abc/`, got, close: () => new Promise((r) => server.close(r)) };
}

for (const kind of ['sqlite', 'postgres'] as const) {
  let inst: TestInstance;
  test.before(async () => {
    inst = await startPluginHost([restHooksPlugin()], kind);
  });
  test.after.always(() => inst?.close());

  test.serial(`[${kind}] subscribe, sample in the delivery's shape, a failing target retried, unsubscribe`, async (t) => {
    const u = await inst.user();
    const form = (await inst.call('POST', '/api/v1/forms', { title: 'Leads', published: true, questions: [{ type: 'short_text', title: 'Company' }, { type: 'email', title: 'Email' }] }, u.key)).body;
    const [company, email] = form.questions;
    const example = (await inst.call('GET', `/api/v1/forms/${form.id}/hooks/sample`, undefined, u.key)).body;
    t.is(example.length, 1, 'a made-up response before the first one');
    t.like(example[0], { test: true, answers: { Company: 'An example answer', Email: 'ada@example.com' } });

    for (const bad of [{ target_url: 'not a url' }, { target_url: 'ftp://x.example/' }, { target_url: 'https://x.example/', event: 'form.deleted' }]) {
      const r = await inst.call('POST', `/api/v1/forms/${form.id}/hooks`, bad, u.key);
      t.is(r.status, 400, JSON.stringify(bad));
    }
    const other = await inst.user();
    const hook = await target([503]);
    t.true([403, 404].includes((await inst.call('POST', `/api/v1/forms/${form.id}/hooks`, { target_url: hook.url }, other.key)).status), "another account's key");

    const sub = await inst.call('POST', `/api/v1/forms/${form.id}/hooks`, { target_url: hook.url, event: 'response.submitted' }, u.key);
    t.is(sub.status, 201);
    t.like(sub.body, { form_id: form.id, event: 'response.submitted', status: 'active' });
    t.false(sub.text.includes(hook.url), 'the target URL is a secret');
    t.deepEqual((await inst.call('GET', `/api/v1/forms/${form.id}/hooks`, undefined, u.key)).body.hooks.map((h: any) => h.id), [sub.body.id]);
    t.like((await inst.call('GET', `/api/v1/forms/${form.id}/integrations`, undefined, u.key)).body.integrations[0], { id: sub.body.id, type: 'rest-hooks', secrets_set: ['target_url'] });

    const r1 = await inst.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: company.id, value: 'Acme' }, { question_id: email.id, value: 'ada@acme.test' }] }, null);
    await until(() => hook.got.length === 1);
    await until(async () => (await inst.dueNow(), hook.got.length === 2));
    const [failed, delivered] = hook.got;
    t.is(failed.headers['x-formloom-delivery'], delivered.headers['x-formloom-delivery'], 'a retry keeps its delivery id');
    t.like(delivered.body, { event: 'response.submitted', form_id: form.id, response_id: r1.body.id, answers: { Company: 'Acme', Email: 'ada@acme.test' } });
    const sample = (await inst.call('GET', `/api/v1/forms/${form.id}/hooks/sample?limit=3`, undefined, u.key)).body;
    t.is(sample.length, 1);
    const strip = ({ delivery_id: _d, ...rest }: any) => rest;
    t.deepEqual(strip(sample[0]), strip(delivered.body), 'the sample is what a delivery carries');

    t.is((await inst.call('DELETE', `/api/v1/forms/${form.id}/hooks/${sub.body.id}`, undefined, u.key)).status, 200);
    t.is((await inst.call('GET', `/api/v1/forms/${form.id}/hooks/${sub.body.id}`, undefined, u.key)).status, 404);
    await inst.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: company.id, value: 'Later' }] }, null);
    await inst.settled();
    t.is(hook.got.length, 2, 'nothing after unsubscribing');
    const doc = (await inst.call('GET', '/api/v1/openapi.json', undefined, null)).body;
    for (const p of ['/forms/{id}/hooks', '/forms/{id}/hooks/sample', '/forms/{id}/hooks/{hookId}']) t.truthy(doc.paths[p], p);
    await hook.close();
  });

  test.serial(`[${kind}] a target answering 410 Gone is unsubscribed`, async (t) => {
    const u = await inst.user();
    const form = (await inst.call('POST', '/api/v1/forms', { title: 'Gone', published: true, questions: [{ type: 'short_text', title: 'Name' }] }, u.key)).body;
    const hook = await target([410]);
    const sub = (await inst.call('POST', `/api/v1/forms/${form.id}/hooks`, { target_url: hook.url }, u.key)).body;
    await inst.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] }, null);
    await until(async () => (await inst.call('GET', `/api/v1/forms/${form.id}/hooks/${sub.id}`, undefined, u.key)).status === 404);
    await inst.call('POST', `/api/v1/public/forms/${form.slug}/responses`, { answers: [{ question_id: form.questions[0].id, value: 'Bo' }] }, null);
    await inst.settled();
    t.is(hook.got.length, 1, 'one delivery, then nothing');
    t.deepEqual((await inst.call('GET', `/api/v1/forms/${form.id}/integrations`, undefined, u.key)).body.integrations, []);
    await hook.close();
  });
}
