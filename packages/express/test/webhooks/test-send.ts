import test from '../helpers/bounded-test';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forEachDb } from '../helpers/app';
import { waitFor } from '@formloom/core/testing';

/* POST /forms/:id/webhooks/test (docs/responses-and-webhooks.md, "Test deliveries"), on SQLite and PostgreSQL. */

async function receiver() {
  const got: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const until = async (check: () => Promise<boolean> | boolean, what: string) => {
  await waitFor(check, { intervalMs: 100, what });
};

forEachDb(test, (it) => {
  it('a test delivery goes to the form webhook and enabled global ones, signed, and shows in the delivery log', async (t, app) => {
    t.timeout(180_000);
    app.formloom.worker.start({ pollMs: 50 });
    const rx = await receiver();
    t.teardown(rx.close);
    const u = await app.user('pro');
    const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'Hooks', questions: [{ type: 'yes_no', title: 'Ok?' }] } })).body;

    const none = await app.api('POST', `/forms/${form.id}/webhooks/test`, { key: u.key });
    t.is(none.status, 400, 'nothing to test');
    t.is(none.body.error.code, 'BAD_REQUEST');

    t.is((await app.api('PUT', `/forms/${form.id}/webhooks`, { key: u.key, body: { url: `${rx.url}?form` } })).status, 200);
    t.is((await app.api('PUT', '/webhooks', { key: u.key, body: { webhooks: [{ url: `${rx.url}?global`, enabled: true }, { url: `${rx.url}?off`, enabled: false }] } })).status, 200);
    const sent = await app.api('POST', `/forms/${form.id}/webhooks/test`, { key: u.key });
    t.is(sent.status, 202, JSON.stringify(sent.body));
    t.deepEqual(sent.body.deliveries.map((d: { url: string }) => d.url).sort(), [`${rx.url}?form`, `${rx.url}?global`]);

    await until(() => rx.got.length >= 2, 'two test deliveries');
    for (const g of rx.got) {
      t.is(g.headers['x-service-event'], 'webhook.test');
      t.truthy(g.headers['x-service-signature']);
      t.like(JSON.parse(g.body), { event: 'webhook.test', form_id: form.id, form_title: 'Hooks' });
    }
    await until(async () => {
      const log = (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body.deliveries;
      return log.length === 2 && log.every((d: { status: string; event: string; response_code: number }) => d.status === 'delivered' && d.event === 'webhook.test' && d.response_code === 200);
    }, 'the log to show both delivered');

    const free = await app.user('free');
    const freeForm = (await app.api('POST', '/forms', { key: free.key, body: { title: 'Free', questions: [] } })).body;
    const refused = await app.api('POST', `/forms/${freeForm.id}/webhooks/test`, { key: free.key });
    t.is(refused.status, 403);
    t.is(refused.body.error.reason, 'webhook_requires_pro');
    t.is((await app.api('POST', `/forms/${form.id}/webhooks/test`, { key: free.key })).status, 403, "another account's form");
  });
}, { allowPrivateWebhooks: true });
