import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { restHooksPlugin } from '../src';
import { startInstance, until } from './helpers/instance';

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
  let inst: Awaited<ReturnType<typeof startInstance>>;
  test.before(async () => {
    inst = await startInstance(kind, [restHooksPlugin()]);
  });
  test.after.always(() => inst?.close());

  test.serial(`[${kind}] subscribe, sample in the delivery's shape, a failing target retried, unsubscribe`, async (t) => {
    const u = await inst.user();
    const form = (await inst.api('POST', '/forms', u.key, { title: 'Leads', published: true, questions: [{ type: 'short_text', title: 'Company' }, { type: 'email', title: 'Email' }] })).body;
    const [company, email] = form.questions;
    const example = (await inst.api('GET', `/forms/${form.id}/hooks/sample`, u.key)).body;
    t.is(example.length, 1, 'a made-up response before the first one');
    t.like(example[0], { test: true, answers: { Company: 'An example answer', Email: 'ada@example.com' } });

    for (const bad of [{ target_url: 'not a url' }, { target_url: 'ftp://x.example/' }, { target_url: 'https://x.example/', event: 'form.deleted' }]) {
      const r = await inst.api('POST', `/forms/${form.id}/hooks`, u.key, bad);
      t.is(r.status, 400, JSON.stringify(bad));
    }
    const other = await inst.user();
    const hook = await target([503]);
    t.true([403, 404].includes((await inst.api('POST', `/forms/${form.id}/hooks`, other.key, { target_url: hook.url })).status), "another account's key");

    const sub = await inst.api('POST', `/forms/${form.id}/hooks`, u.key, { target_url: hook.url, event: 'response.submitted' });
    t.is(sub.status, 201);
    t.like(sub.body, { form_id: form.id, event: 'response.submitted', status: 'active' });
    t.false(sub.text.includes(hook.url), 'the target URL is a secret');
    t.deepEqual((await inst.api('GET', `/forms/${form.id}/hooks`, u.key)).body.hooks.map((h: any) => h.id), [sub.body.id]);
    t.like((await inst.api('GET', `/forms/${form.id}/integrations`, u.key)).body.integrations[0], { id: sub.body.id, type: 'rest-hooks', secrets_set: ['target_url'] });

    const r1 = await inst.api('POST', `/public/forms/${form.slug}/responses`, undefined, { answers: [{ question_id: company.id, value: 'Acme' }, { question_id: email.id, value: 'ada@acme.test' }] });
    await until(() => hook.got.length === 1);
    await until(async () => (await inst.dueNow(), hook.got.length === 2));
    const [failed, delivered] = hook.got;
    t.is(failed.headers['x-formloom-delivery'], delivered.headers['x-formloom-delivery'], 'a retry keeps its delivery id');
    t.like(delivered.body, { event: 'response.submitted', form_id: form.id, response_id: r1.body.id, answers: { Company: 'Acme', Email: 'ada@acme.test' } });
    const sample = (await inst.api('GET', `/forms/${form.id}/hooks/sample?limit=3`, u.key)).body;
    t.is(sample.length, 1);
    const strip = ({ delivery_id: _d, ...rest }: any) => rest;
    t.deepEqual(strip(sample[0]), strip(delivered.body), 'the sample is what a delivery carries');

    t.is((await inst.api('DELETE', `/forms/${form.id}/hooks/${sub.body.id}`, u.key)).status, 200);
    t.is((await inst.api('GET', `/forms/${form.id}/hooks/${sub.body.id}`, u.key)).status, 404);
    await inst.api('POST', `/public/forms/${form.slug}/responses`, undefined, { answers: [{ question_id: company.id, value: 'Later' }] });
    await inst.settled();
    t.is(hook.got.length, 2, 'nothing after unsubscribing');
    const doc = (await inst.api('GET', '/openapi.json')).body;
    for (const p of ['/forms/{id}/hooks', '/forms/{id}/hooks/sample', '/forms/{id}/hooks/{hookId}']) t.truthy(doc.paths[p], p);
    await hook.close();
  });

  test.serial(`[${kind}] a target answering 410 Gone is unsubscribed`, async (t) => {
    const u = await inst.user();
    const form = (await inst.api('POST', '/forms', u.key, { title: 'Gone', published: true, questions: [{ type: 'short_text', title: 'Name' }] })).body;
    const hook = await target([410]);
    const sub = (await inst.api('POST', `/forms/${form.id}/hooks`, u.key, { target_url: hook.url })).body;
    await inst.api('POST', `/public/forms/${form.slug}/responses`, undefined, { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] });
    await until(async () => (await inst.api('GET', `/forms/${form.id}/hooks/${sub.id}`, u.key)).status === 404);
    await inst.api('POST', `/public/forms/${form.slug}/responses`, undefined, { answers: [{ question_id: form.questions[0].id, value: 'Bo' }] });
    await inst.settled();
    t.is(hook.got.length, 1, 'one delivery, then nothing');
    t.deepEqual((await inst.api('GET', `/forms/${form.id}/integrations`, u.key)).body.integrations, []);
    await hook.close();
  });
}
