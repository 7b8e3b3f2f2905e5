import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import { forEachDb, type TestApp } from '../helpers/app';
import { until } from '../helpers/session-client';

/*
 * Outbox items leased at birth (docs/decisions.md): a submission's webhook items are committed leased to
 * this instance's running worker and handed to it after the commit, so they go out without a claim or a
 * poll; with no worker running they are born unleased and claimed as before.
 */

async function receiver() {
  const got: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push(body);
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, close: () => new Promise((r) => server.close(r)) };
}

async function hookedForm(app: TestApp, url: string) {
  const u = await app.user('pro');
  const res = await app.api('POST', '/forms', {
    key: u.key,
    body: { title: 'Hooked', published: true, webhook_url: url, questions: [{ type: 'short_text', title: 'Name' }] },
  });
  return { key: u.key, form: res.body };
}

const submit = (app: TestApp, form: any, value: string) =>
  app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value }] } });

/** The outbox items of the form's deliveries (the tests of one database share an app). */
async function webhookItems(app: TestApp, key: string, formId: string) {
  const log = (await app.api('GET', `/forms/${formId}/webhooks/deliveries`, { key })).body;
  const rows = await app.raw(`SELECT status, attempts, locked_by, payload FROM outbox WHERE kind = 'webhook'`);
  return rows.filter((r: any) => log.deliveries.some((d: any) => String(r.payload).includes(d.id)));
}

forEachDb(
  test,
  (it) => {
    it('a running worker sends the items of a submission at once, without waiting for a poll, each once', async (t, app) => {
      // An hour between polls: only the hand-over after the commit can send these in time.
      app.formloom.worker.start({ pollMs: 3_600_000 });
      const hook = await receiver();
      const { key, form } = await hookedForm(app, hook.url);
      for (const name of ['Ada', 'Grace', 'Edsger']) t.is((await submit(app, form, name)).status, 201);
      await until(() => hook.got.length === 3, 60_000);
      await until(async () => (await webhookItems(app, key, form.id)).every((r: any) => r.status === 'delivered'), 60_000);
      const items = await webhookItems(app, key, form.id);
      t.is(items.length, 3);
      for (const r of items) t.like({ status: r.status, attempts: Number(r.attempts), locked_by: r.locked_by }, { status: 'delivered', attempts: 1, locked_by: null });
      t.deepEqual(hook.got.map((b) => JSON.parse(b).response.answers[0].value).sort(), ['Ada', 'Edsger', 'Grace']);
      const log = (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key })).body;
      t.true(log.deliveries.every((d: any) => d.status === 'delivered' && d.attempts === 1));
      await app.formloom.worker.stop();
      await hook.close();
    });

    it('without a running worker an item is born unleased, and a worker started later claims and sends it', async (t, app) => {
      const hook = await receiver();
      const { key, form } = await hookedForm(app, hook.url);
      t.is((await submit(app, form, 'Ada')).status, 201);
      const [born] = await webhookItems(app, key, form.id);
      t.like({ status: born.status, attempts: Number(born.attempts), locked_by: born.locked_by }, { status: 'pending', attempts: 0, locked_by: null });
      app.formloom.worker.start({ pollMs: 100 });
      await until(() => hook.got.length === 1, 60_000);
      await until(async () => (await webhookItems(app, key, form.id))[0].status === 'delivered', 60_000);
      t.is(hook.got.length, 1);
      await app.formloom.worker.stop();
      await hook.close();
    });
  },
  { allowPrivateWebhooks: true, serial: true },
);
