import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { forEachDb, type TestApp } from '../helpers/app';
import { waitFor } from '@formloom/core/testing';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A real webhook receiver on loopback that answers with the queued statuses (then 200). */
async function receiver(statuses: number[] = []) {
  const got: Received[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.statusCode = statuses.shift() ?? 200;
      res.end('ok');
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, got, close: () => new Promise((r) => server.close(r)) };
}

/** The Standard Webhooks headers of a received delivery, as the reference library takes them. */
const standardHeaders = (r: Received) => ({
  'webhook-id': String(r.headers['webhook-id']),
  'webhook-timestamp': String(r.headers['webhook-timestamp']),
  'webhook-signature': String(r.headers['webhook-signature']),
});

async function until<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 60_000): Promise<T> {
  return (await waitFor(fn, { timeoutMs: ms, intervalMs: 50 })) as T;
}

async function formWithHook(app: TestApp, key: string, url: string) {
  const res = await app.api('POST', '/forms', {
    key,
    body: { title: 'Hooked', published: true, webhook_url: url, questions: [{ type: 'short_text', title: 'Name' }] },
  });
  if (!res.body.published) throw new Error(JSON.stringify(res.body));
  return res.body;
}

forEachDb(
  test,
  (it) => {
    it('delivers response.submitted signed with the current secret, to the form URL and enabled global URLs', async (t, app) => {
      app.formloom.worker.start({ pollMs: 100 });
      const u = await app.user('pro');
      const formHook = await receiver();
      const globalHook = await receiver();
      const disabled = await receiver();
      const put = await app.api('PUT', '/webhooks', { key: u.key, body: { webhooks: [{ url: globalHook.url, enabled: true }, { url: disabled.url, enabled: false }] } });
      t.is(put.status, 200);
      const { secret } = (await app.api('GET', '/webhooks/secret', { key: u.key })).body;
      t.regex(secret, /^[0-9a-f]{64}$/);
      const rotatedLater = 'ab'.repeat(32);
      t.is((await app.api('GET', '/webhooks/secret', { key: u.key })).body.secret, secret, 'stable across reads');
      const form = await formWithHook(app, u.key, formHook.url);
      const sub = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: 'Ada' }] } });
      t.is(sub.status, 201);
      await until(() => formHook.got.length === 1 && globalHook.got.length === 1);
      for (const r of [formHook.got[0]!, globalHook.got[0]!]) {
        t.is(r.headers['content-type'], 'application/json');
        t.is(r.headers['x-service-event'], 'response.submitted');
        t.is(r.headers['x-service-signature'], createHmac('sha256', secret).update(r.body).digest('hex'));
        // Standard Webhooks: the secret as shown, given to the reference library, verifies the delivery.
        t.deepEqual(new Webhook(secret).verify(r.body, standardHeaders(r)), JSON.parse(r.body));
        t.is(r.headers['webhook-id'], r.headers['x-service-delivery'], 'the delivery id');
        t.throws(() => new Webhook(secret).verify(r.body.replace('Ada', 'Eve'), standardHeaders(r)), { instanceOf: WebhookVerificationError }, 'a changed body fails');
        t.throws(() => new Webhook(rotatedLater).verify(r.body, standardHeaders(r)), { instanceOf: WebhookVerificationError }, 'another secret fails');
        const payload = JSON.parse(r.body);
        t.like(payload, { event: 'response.submitted', form_id: form.id, form_title: 'Hooked', response: { id: sub.body.id } });
        t.deepEqual(payload.response.answers, [{ question_id: form.questions[0].id, question_title: 'Name', value: 'Ada' }]);
      }
      t.is(disabled.got.length, 0);
      const rotated = (await app.api('POST', '/webhooks/secret', { key: u.key })).body.secret;
      t.not(rotated, secret);
      await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [] } });
      await until(() => formHook.got.length === 2);
      t.is(formHook.got[1]!.headers['x-service-signature'], createHmac('sha256', rotated).update(formHook.got[1]!.body).digest('hex'));
      const deliveries = await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key });
      t.is(deliveries.status, 200);
      await until(async () => (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body.deliveries.every((d: any) => d.status === 'delivered'));
      const d = (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body;
      t.is(d.total, 4);
      t.like(d.deliveries[0], { status: 'delivered', response_code: 200, attempts: 1, next_attempt_at: null });
      t.is(typeof d.deliveries[0].duration_ms, 'number');
      await Promise.all([formHook.close(), globalHook.close(), disabled.close()]);
    });

    it('5xx is retried with backoff, other 4xx are final; retry re-sends', async (t, app) => {
      app.formloom.worker.start({ pollMs: 100 });
      const u = await app.user('pro');
      const flaky = await receiver([503]);
      const form = await formWithHook(app, u.key, flaky.url);
      // A lower bound only: the failed attempt came after this, so its retry is at least the backoff after it.
      const before = Date.now();
      await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [] } });
      await until(() => flaky.got.length === 1);
      const list = await until(async () => {
        const b = (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body;
        return b.deliveries[0]?.attempts === 1 ? b : undefined;
      });
      t.like(list.deliveries[0], { status: 'pending', response_code: 503, attempts: 1 });
      t.true(Date.parse(list.deliveries[0].next_attempt_at) > before + 5000, 'backoff before the next attempt');
      const retry = await app.api('POST', `/forms/${form.id}/webhooks/deliveries/${list.deliveries[0].id}/retry`, { key: u.key });
      t.is(retry.status, 202);
      await until(() => flaky.got.length === 2);
      // Each attempt is signed anew: one webhook-id (receivers deduplicate by it), each attempt its own timestamp.
      const secret = (await app.api('GET', '/webhooks/secret', { key: u.key })).body.secret;
      const [first, second] = flaky.got as [Received, Received];
      t.is(first.headers['webhook-id'], list.deliveries[0].id);
      t.is(second.headers['webhook-id'], first.headers['webhook-id']);
      for (const r of [first, second]) t.truthy(new Webhook(secret).verify(r.body, standardHeaders(r)));
      // The timestamp is the attempt's own (what a receiver's replay window is measured against): bounds, not a window.
      for (const r of [first, second]) {
        const ts = Number(r.headers['webhook-timestamp']);
        t.true(ts >= Math.floor(before / 1000) && ts <= Math.ceil(Date.now() / 1000), `timestamp ${ts}`);
      }
      await until(async () => (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body.deliveries[0].status === 'delivered');

      const gone = await receiver([410]);
      const form2 = await formWithHook(app, u.key, gone.url);
      await app.api('POST', `/public/forms/${form2.slug}/responses`, { body: { answers: [] } });
      const failed = await until(async () => {
        const b = (await app.api('GET', `/forms/${form2.id}/webhooks/deliveries`, { key: u.key })).body;
        return b.deliveries[0]?.status === 'failed' ? b.deliveries[0] : undefined;
      });
      t.like(failed, { response_code: 410, attempts: 1, next_attempt_at: null });
      await Promise.all([flaky.close(), gone.close()]);
    });

    it("the delivery log keeps the start of each receiver's answer (response_excerpt), also after a resend", async (t, app) => {
      app.formloom.worker.start({ pollMs: 100 });
      const u = await app.user('pro');
      // First a 503 with a long multi-byte body, then a short 200, then an empty 204.
      const answers: Array<[number, string]> = [[503, `busy: ${'é€'.repeat(3000)}`], [200, '{"thanks":true}'], [204, '']];
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const [status, body] = answers.shift() ?? [200, 'ok'];
          res.statusCode = status;
          res.end(body);
        });
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      const form = await formWithHook(app, u.key, `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
      const log = async () => (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body.deliveries[0];
      await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [] } });
      const failed = await until(async () => ((await log())?.attempts === 1 ? log() : undefined));
      t.like(failed, { status: 'pending', response_code: 503 });
      t.is(failed.response_excerpt.length, 500, 'at most 500 characters');
      t.true(failed.response_excerpt.startsWith('busy: é€é€'));
      t.true(`busy: ${'é€'.repeat(3000)}`.startsWith(failed.response_excerpt), 'a prefix of what was answered, no broken character');
      t.is((await app.api('POST', `/forms/${form.id}/webhooks/deliveries/${failed.id}/retry`, { key: u.key })).status, 202);
      const delivered = await until(async () => ((await log())?.status === 'delivered' ? log() : undefined));
      t.like(delivered, { response_code: 200, attempts: 2, response_excerpt: '{"thanks":true}' });
      const attempts = await app.formloom.storage.deliveries.listAttempts(failed.id);
      t.deepEqual(attempts.map((a) => [a.status_code, a.response_excerpt?.length]), [[503, 500], [200, 15]], 'kept per attempt');
      await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [] } });
      const empty = await until(async () => {
        const b = (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body;
        return b.deliveries.length === 2 && b.deliveries[0].status === 'delivered' ? b.deliveries[0] : undefined;
      });
      t.like(empty, { response_code: 204, response_excerpt: null });
      await new Promise((r) => server.close(r));
    });

    it('a redirect is not followed: the delivery fails at once, saying why', async (t, app) => {
      app.formloom.worker.start({ pollMs: 100 });
      const u = await app.user('pro');
      const inner = await receiver();
      const bouncer = createServer((_req, res) => {
        res.writeHead(302, { location: inner.url }).end();
      });
      await new Promise<void>((r) => bouncer.listen(0, '127.0.0.1', () => r()));
      const form = await formWithHook(app, u.key, `http://127.0.0.1:${(bouncer.address() as AddressInfo).port}/hook`);
      await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [] } });
      const d = await until(async () => {
        const b = (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body;
        return b.deliveries[0]?.status === 'failed' ? b.deliveries[0] : undefined;
      });
      t.like(d, { response_code: 302, attempts: 1, next_attempt_at: null });
      t.regex(d.error, /redirects are not followed/);
      t.is(inner.got.length, 0);
      await Promise.all([inner.close(), new Promise((r) => bouncer.close(r))]);
    });

    it('webhook endpoints: plan gating, validation, form field kept in step', async (t, app) => {
      const free = await app.user('free');
      const form = await app.api('POST', '/forms', { key: free.key, body: { title: 'F' } });
      for (const [m, p] of [['GET', '/webhooks'], ['GET', '/webhooks/secret'], ['POST', '/webhooks/secret'], ['GET', `/forms/${form.body.id}/webhooks`]] as const) {
        const res = await app.api(m, p, { key: free.key });
        t.is(res.status, 403, `${m} ${p}`);
      }
      const pro = await app.user('pro');
      const f = await app.api('POST', '/forms', { key: pro.key, body: { title: 'P' } });
      t.deepEqual((await app.api('GET', `/forms/${f.body.id}/webhooks`, { key: pro.key })).body, { webhook_url: null });
      t.is((await app.api('PUT', `/forms/${f.body.id}/webhooks`, { key: pro.key, body: { url: 'nope' } })).status, 400);
      t.is((await app.api('PUT', `/forms/${f.body.id}/webhooks`, { key: pro.key, body: {} })).status, 400);
      const set = await app.api('PUT', `/forms/${f.body.id}/webhooks`, { key: pro.key, body: { url: 'https://example.com/h' } });
      t.deepEqual(set.body, { webhook_url: 'https://example.com/h' });
      t.is((await app.api('GET', `/forms/${f.body.id}`, { key: pro.key })).body.webhook_url, 'https://example.com/h');
      await app.api('PUT', `/forms/${f.body.id}`, { key: pro.key, body: { webhook_url: null } });
      t.deepEqual((await app.api('GET', `/forms/${f.body.id}/webhooks`, { key: pro.key })).body, { webhook_url: null });
      const six = Array.from({ length: 6 }, (_, i) => ({ url: `https://example.com/${i}`, enabled: true }));
      t.is((await app.api('PUT', '/webhooks', { key: pro.key, body: { webhooks: six } })).status, 400);
      t.deepEqual((await app.api('GET', '/webhooks', { key: pro.key })).body, { webhooks: [] });
    });
  },
  { allowPrivateWebhooks: true },
);

forEachDb(test, (it) => {
  it('the SSRF guard refuses loopback targets unless private targets are allowed', async (t, app) => {
    app.formloom.worker.start({ pollMs: 100 });
    const u = await app.user('pro');
    const local = await receiver();
    const form = await formWithHook(app, u.key, local.url.replace('127.0.0.1', 'localhost'));
    await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [] } });
    const d = await until(async () => (await app.api('GET', `/forms/${form.id}/webhooks/deliveries`, { key: u.key })).body.deliveries.find((x: any) => x.attempts > 0));
    t.regex(d.error, /Refused: localhost resolves to .* not a public address/);
    // Refused at once, not retried for a day.
    t.like(d, { status: 'failed', attempts: 1, next_attempt_at: null, response_code: null });
    t.is(local.got.length, 0);
    await local.close();
  });
});

/** A receiver that holds every request open until `release()`, counting how many it holds at once. */
async function blockingReceiver() {
  const held: Array<() => void> = [];
  let open = 0;
  let maxOpen = 0;
  let released = false;
  let answered = 0;
  const server: Server = createServer((req, res) => {
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    req.resume();
    let closed = false;
    // A request the sender gave up on (its time-out, on a very slow machine) is no longer open.
    res.on('close', () => {
      if (!closed) open -= 1;
      closed = true;
    });
    const answer = () => {
      if (closed) return;
      closed = true;
      open -= 1;
      answered += 1;
      res.end('ok');
    };
    if (released) answer();
    else held.push(answer);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    get open() {
      return open;
    },
    get maxOpen() {
      return maxOpen;
    },
    get answered() {
      return answered;
    },
    release() {
      released = true;
      for (const a of held.splice(0)) a();
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

forEachDb(
  test,
  (it) => {
    it('a slow receiver holds up only its own deliveries, at most 4 at once; a fast one gets all of its own meanwhile', async (t, app) => {
      app.formloom.worker.start({ pollMs: 50 });
      const u = await app.user('pro');
      const slow = await blockingReceiver();
      const fast = await receiver();
      const slowForm = await formWithHook(app, u.key, slow.url);
      const fastForm = await formWithHook(app, u.key, fast.url);
      for (let i = 0; i < 6; i++) await app.api('POST', `/public/forms/${slowForm.slug}/responses`, { body: { answers: [] } });
      await until(() => slow.open === 4);
      for (let i = 0; i < 5; i++) await app.api('POST', `/public/forms/${fastForm.slug}/responses`, { body: { answers: [] } });
      await until(() => fast.got.length === 5);
      t.is(slow.answered, 0, 'every fast delivery arrived while the slow receiver was still blocked');
      t.is(slow.maxOpen, 4, 'at most 4 deliveries to one host at once');
      slow.release();
      await until(() => slow.answered === 6, 30_000);
      await until(async () => (await app.api('GET', `/forms/${slowForm.id}/webhooks/deliveries`, { key: u.key })).body.deliveries.every((d: any) => d.status === 'delivered'));
      t.is(slow.maxOpen, 4);
      await Promise.all([slow.close(), fast.close()]);
    });
  },
  { allowPrivateWebhooks: true },
);
