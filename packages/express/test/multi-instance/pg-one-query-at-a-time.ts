import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import { startTestApp, type TestApp } from '../helpers/app';
import { waitFor } from '@formloom/core/testing';

/**
 * pg deprecates handing a connection a query while it runs another ("Calling client.query() when the client is
 * already executing a query", gone in pg 9). A transaction's statements are sent together by the core (a group
 * commit's works, an insert with its count, a webhook's delivery with its outbox item); the adapter must give
 * them to the connection one at a time. pg warns once per process, through process warnings: this part runs
 * the hot paths on PostgreSQL and expects no such warning from any of them. Its listener is on from the moment
 * multi-instance.test.ts imports it, so a warning from the other parts of that process (two instances on one
 * PostgreSQL) fails it too.
 */
const warnings: Error[] = [];
process.on('warning', (w) => {
  if (/already executing a query/.test(w.message)) warnings.push(w);
});

async function until<T>(fn: () => Promise<T | undefined | false> | T | undefined | false, ms = 60_000): Promise<T> {
  return (await waitFor(fn, { timeoutMs: ms, intervalMs: 50 })) as T;
}

/** A webhook receiver on loopback that counts deliveries. */
async function receiver() {
  let got = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      got++;
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => got, close: () => new Promise((r) => server.close(r)) };
}

let app: TestApp;
test.before(async () => {
  app = await startTestApp('postgres', { allowPrivateWebhooks: true, rateLimits: false });
});
test.after.always(async () => app?.close());

test('submissions, partial responses, webhooks and the owner reads run one query at a time per connection', async (t) => {
  const hook = await receiver();
  t.teardown(hook.close);
  app.formloom.worker.start({ pollMs: 100 });
  const u = await app.user('pro');
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Hooked',
      published: true,
      webhook_url: hook.url,
      incremental_submission: true,
      response_limit: 1000,
      questions: [{ type: 'short_text', title: 'Name', required: true }, { type: 'rating', title: 'Score', properties: { steps: 5 } }],
    },
  });
  t.is(created.status, 201, created.text);
  const form = created.body;
  const [name, score] = form.questions;
  const submit = (value: string) =>
    app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: name.id, value }, { question_id: score.id, value: 4 }] } });

  t.is((await submit('one')).status, 201);
  // Submissions that arrive together commit together (group commit): their works share one transaction.
  const together = await Promise.all(Array.from({ length: 8 }, (_, i) => submit(`many ${i}`)));
  t.deepEqual(together.map((r) => r.status), Array(8).fill(201));

  const partial = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: score.id, value: 2 }], completed: false } });
  t.is(partial.status, 201, partial.text);
  const done = await app.api('PATCH', `/public/forms/${form.slug}/responses/${partial.body.id}`, {
    body: { answers: [{ question_id: name.id, value: 'later' }], completed: true },
    headers: { 'x-resume-token': partial.body.resume_token },
  });
  t.is(done.status, 200, done.text);

  // Every completed submission is delivered, and each delivery settled by the worker.
  await until(() => hook.count() >= 10);

  for (const path of [`/forms/${form.id}/responses`, `/forms/${form.id}/responses/export`, `/forms/${form.id}/analytics`, `/forms/${form.id}`, '/forms']) {
    t.is((await app.api('GET', path, { key: u.key })).status, 200, path);
  }
  t.is((await app.api('DELETE', `/forms/${form.id}/responses/${together[0]!.body.id}`, { key: u.key })).status, 200);
  t.is((await app.api('PUT', `/forms/${form.id}`, { key: u.key, body: { title: 'Renamed' } })).status, 200);
  await app.formloom.worker.stop();

  t.deepEqual(warnings.map((w) => w.message), []);
});
