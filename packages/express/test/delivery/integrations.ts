import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import { definePlugin, defineIntegration } from '@formloom/core';
import { waitFor } from '@formloom/core/testing';
import { forEachDb, startTestApp, type TestApp } from '../helpers/app';

/*
 * The integrations framework through the API (docs/integrations.md): a test plugin's integration type, its
 * settings (secrets write-only and sealed), field mapping, deliveries through the outbox with retries, the
 * log, "Send test", pause, access, and the private-address guard.
 */

/** A local receiver answering the queued statuses (then 200), echoing what it got. */
async function receiver(statuses: number[] = []) {
  const got: Array<{ method: string; headers: Record<string, unknown>; body: any }> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ method: req.method!, headers: req.headers, body: body ? JSON.parse(body) : null });
      res.statusCode = statuses.shift() ?? 200;
      res.end(res.statusCode === 200 ? 'accepted' : 'try later');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/in`, got, close: () => new Promise((r) => server.close(r)) };
}

const echo = defineIntegration({
  type: 'echo',
  title: 'Echo',
  description: 'Sends each response as JSON to a URL.',
  fields: [
    { key: 'url', label: 'URL', type: 'url', secret: true, required: true, help: 'Where to send.' },
    { key: 'mode', label: 'Mode', type: 'select', options: [{ value: 'full', label: 'Full' }, { value: 'short', label: 'Short' }], default: 'full' },
    { key: 'loud', label: 'Loud', type: 'checkbox' },
  ],
  async deliver(d, ctx) {
    const a = await ctx.http.request({ url: d.secrets.url, method: 'PUT', headers: { 'content-type': 'application/json', 'x-delivery': d.id }, body: JSON.stringify({ mode: d.config.mode, answers: d.payload.answers, test: d.payload.test ?? false, files: d.answers.flatMap((a) => (a.file_url ? [a.file_url] : [])) }) });
    return { status: a.status, body: a.body };
  },
});
const plugin = definePlugin({ name: 'echo', version: '1.0.0', integrations: [echo] });

const until = <T>(fn: () => Promise<T | undefined | false> | T | undefined | false) => waitFor(fn, { timeoutMs: 60_000, intervalMs: 50 }) as Promise<T>;

async function makeForm(app: TestApp, key: string) {
  const res = await app.api('POST', '/forms', {
    key,
    body: { title: 'Orders', published: true, questions: [{ type: 'short_text', title: 'Name' }, { type: 'yes_no', title: 'Gift wrap?' }, { type: 'short_text', title: 'Note' }] },
  });
  return res.body;
}

/** Makes the waiting integration deliveries due now (their retry is seconds to hours away). */
const dueNow = (app: TestApp) =>
  app.raw(`UPDATE outbox SET next_attempt_at = '${new Date(Date.now() - 1000).toISOString()}' WHERE kind = 'integrations.delivery' AND status = 'pending'`);

forEachDb(
  test,
  (it) => {
    it('settings are checked, secrets write-only and sealed, mapped responses delivered through the outbox and retried', async (t, app) => {
      app.formloom.worker.start({ pollMs: 50 });
      const u = await app.user('free');
      const form = await makeForm(app, u.key);
      const [q1, q2] = form.questions;
      const types = (await app.api('GET', '/integrations/types', { key: u.key })).body.types;
      t.like(types.find((x: any) => x.type === 'echo'), { plugin: 'echo', title: 'Echo', mapping: true, addable: true });
      t.like(types.find((x: any) => x.type === 'echo').fields[0], { key: 'url', secret: true, required: true, help: 'Where to send.' });

      const bad = [
        [{ type: 'nope' }, 'type'],
        [{ type: 'echo', config: {} }, 'config.url'],
        [{ type: 'echo', config: { url: 'ftp://x' } }, 'config.url'],
        [{ type: 'echo', config: { url: 'http://a.example', mode: 'odd' } }, 'config.mode'],
        [{ type: 'echo', config: { url: 'http://a.example', extra: 'x' } }, 'config.extra'],
        [{ type: 'echo', config: { url: 'http://a.example' }, fields: [{ question_id: 'q_nope' }] }, 'fields.0.question_id'],
      ] as const;
      for (const [body, field] of bad) {
        const r = await app.api('POST', `/forms/${form.id}/integrations`, { key: u.key, body });
        t.is(r.status, 400, JSON.stringify(body));
        t.is(r.body.error.field, field);
      }
      t.is((await app.api('GET', `/forms/${form.id}/integrations`, { key: u.key })).body.integrations.length, 0, 'nothing half-written');

      // A response while the form has no integration: the instance keeps that (no integration) in memory
      // under the cache revision, which adding one below moves on (the first delivery checks it).
      t.is((await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: q1.id, value: 'Early' }] } })).status, 201);
      const hook = await receiver([503, 503]);
      const created = await app.api('POST', `/forms/${form.id}/integrations`, {
        key: u.key,
        body: { type: 'echo', name: 'Shop', config: { url: hook.url, loud: true }, fields: [{ question_id: q2.id, name: 'Wrap' }, { question_id: q1.id }] },
      });
      t.is(created.status, 201);
      t.like(created.body, { type: 'echo', name: 'Shop', status: 'active', config: { mode: 'full', loud: true }, secrets_set: ['url'], available: true });
      t.deepEqual(created.body.fields, [{ question_id: q2.id, name: 'Wrap' }, { question_id: q1.id, name: 'Name' }]);
      t.false(created.text.includes(hook.url), 'the secret is never answered');
      const [row] = await app.raw(`SELECT secrets, config FROM integrations WHERE id = '${created.body.id}'`);
      t.false(String(row.secrets).includes('127.0.0.1'), 'sealed at rest');
      t.false(String(row.config).includes('127.0.0.1'));

      // Another account neither sees nor changes it.
      const other = await app.user('free');
      t.true([403, 404].includes((await app.api('GET', `/forms/${form.id}/integrations`, { key: other.key })).status));
      t.true([403, 404].includes((await app.api('DELETE', `/forms/${form.id}/integrations/${created.body.id}`, { key: other.key })).status));

      // The receiver fails twice and comes back: one delivery, retried, taken once.
      const sub = await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: q1.id, value: 'Ada' }, { question_id: q2.id, value: true }] } });
      t.is(sub.status, 201);
      const log = () => app.api('GET', `/forms/${form.id}/integrations/${created.body.id}/deliveries`, { key: u.key }).then((r) => r.body.deliveries);
      let first = await until(async () => (await log())[0]?.attempts === 1 && (await log())[0]);
      t.like(first, { status: 'pending', response_code: 503, response_excerpt: 'try later', event: 'response.submitted', response_id: sub.body.id });
      t.truthy(first.next_attempt_at);
      await dueNow(app);
      await until(async () => (await log())[0]?.attempts === 2);
      await dueNow(app);
      first = await until(async () => (await log())[0]?.status === 'delivered' && (await log())[0]);
      t.like(first, { attempts: 3, response_code: 200, response_excerpt: 'accepted', error: null, next_attempt_at: null });
      t.is(hook.got.length, 3);
      t.deepEqual(hook.got.map((g) => g.headers['x-delivery']), [first.id, first.id, first.id], 'one delivery id over its retries');
      t.deepEqual(hook.got[2]!.body, { mode: 'full', answers: { Wrap: 'Yes', Name: 'Ada' }, test: false, files: [] });
      t.is(hook.got[2]!.method, 'PUT');

      // Send test: at once, the receiver's answer shown and logged.
      const tested = await app.api('POST', `/forms/${form.id}/integrations/${created.body.id}/test`, { key: u.key });
      t.like(tested.body, { ok: true, response_code: 200, response_excerpt: 'accepted', error: null });
      t.true(hook.got.at(-1)!.body.test);
      t.is((await log())[0].event, 'integration.test');

      // Pause: nothing goes; resume: it does again. Secrets survive an update that leaves them out.
      const paused = await app.api('PATCH', `/forms/${form.id}/integrations/${created.body.id}`, { key: u.key, body: { status: 'paused', config: { mode: 'short', url: '' } } });
      t.like(paused.body, { status: 'paused', config: { mode: 'short' }, secrets_set: ['url'] });
      const before = hook.got.length;
      await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: q1.id, value: 'Bo' }] } });
      await app.api('PATCH', `/forms/${form.id}/integrations/${created.body.id}`, { key: u.key, body: { status: 'active' } });
      await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: q1.id, value: 'Cy' }] } });
      await until(() => hook.got.length === before + 1);
      t.deepEqual(hook.got.at(-1)!.body.answers, { Wrap: '', Name: 'Cy' });
      t.is((await log()).filter((d: any) => d.event === 'response.submitted').length, 2, 'the paused time queued nothing');

      // Delete: gone with its log.
      t.is((await app.api('DELETE', `/forms/${form.id}/integrations/${created.body.id}`, { key: u.key })).status, 200);
      t.is((await app.api('GET', `/forms/${form.id}/integrations/${created.body.id}`, { key: u.key })).status, 404);
      const [n] = await app.raw(`SELECT COUNT(*) AS n FROM integration_deliveries WHERE integration_id = '${created.body.id}'`);
      t.is(Number(n.n), 0);
      const doc = (await app.api('GET', '/openapi.json')).body;
      for (const p of ['/integrations/types', '/forms/{id}/integrations', '/forms/{id}/integrations/{integrationId}/test', '/forms/{id}/integrations/{integrationId}/deliveries']) t.truthy(doc.paths[p], p);
      await hook.close();
    });

    it('a file answer reaches the integration as a signed link that opens without a key', async (t, app) => {
      app.formloom.worker.start({ pollMs: 50 });
      const u = await app.user('free');
      const form = (await app.api('POST', '/forms', { key: u.key, body: { title: 'CVs', published: true, questions: [{ type: 'file_upload', title: 'Your CV' }] } })).body;
      const hook = await receiver();
      await app.api('POST', `/forms/${form.id}/integrations`, { key: u.key, body: { type: 'echo', config: { url: hook.url } } });
      const fd = new FormData();
      fd.append('file', new Blob(['%PDF-1.4 cv'], { type: 'application/pdf' }), 'cv.pdf');
      const file: any = await (await fetch(`${app.url}/api/v1/public/forms/${form.slug}/uploads?question_id=${form.questions[0].id}`, { method: 'POST', body: fd })).json();
      await app.api('POST', `/public/forms/${form.slug}/responses`, { body: { answers: [{ question_id: form.questions[0].id, value: file }] } });
      await until(() => hook.got.length === 1);
      t.deepEqual(hook.got[0]!.body.answers, { 'Your CV': 'cv.pdf' });
      const i = (await app.api('GET', `/forms/${form.id}/integrations`, { key: u.key })).body.integrations[0];
      const sent = await app.api('POST', `/forms/${form.id}/integrations/${i.id}/test`, { key: u.key });
      t.true(sent.body.ok);
      t.is(hook.got.length, 2);
      t.is((await fetch(file.url)).status, 401, 'the plain URL needs a key');
      for (const got of hook.got) {
        const [link] = got.body.files;
        t.regex(link, /\?expires=\d+&sig=/);
        const opened = await fetch(link);
        t.is(opened.status, 200, 'the signed link opens without a key');
        t.is(await opened.text(), '%PDF-1.4 cv');
      }
      await hook.close();
    });

    it("a team's viewer reads its integrations and their log; editors change them", async (t, app) => {
      const owner = await app.user('enterprise');
      const team = (await app.api('POST', '/teams', { key: owner.key, body: { name: 'Shop' } })).body;
      const [viewer, editor] = [await app.user(), await app.user()];
      for (const [who, role] of [[viewer, 'viewer'], [editor, 'editor']] as const) {
        const inv = await app.api('POST', `/teams/${team.id}/invitations`, { key: owner.key, body: { email: who.email, role } });
        t.is((await app.api('POST', `/invitations/${inv.body.token}/accept`, { key: who.key })).status, 200);
      }
      const form = (await app.api('POST', '/forms', { key: owner.key, body: { title: 'Team orders', team_id: team.id, questions: [{ type: 'short_text', title: 'Name' }] } })).body;
      const made = await app.api('POST', `/forms/${form.id}/integrations`, { key: editor.key, body: { type: 'echo', config: { url: 'https://hooks.example.com/in' } } });
      t.is(made.status, 201, 'an editor adds one');
      const base = `/forms/${form.id}/integrations/${made.body.id}`;
      t.is((await app.api('GET', `/forms/${form.id}/integrations`, { key: viewer.key })).body.integrations.length, 1);
      t.is((await app.api('GET', `${base}/deliveries`, { key: viewer.key })).status, 200);
      t.is((await app.api('POST', `/forms/${form.id}/integrations`, { key: viewer.key, body: { type: 'echo', config: { url: 'https://x.example/' } } })).status, 403);
      for (const [method, path, body] of [['PATCH', base, { status: 'paused' }], ['DELETE', base, undefined], ['POST', `${base}/test`, undefined]] as const) {
        t.is((await app.api(method, path, { key: viewer.key, body })).status, 403, `${method} ${path}`);
      }
      t.is((await app.api('GET', base, { key: owner.key })).body.status, 'active', 'nothing changed');
    });
  },
  { allowPrivateWebhooks: true, plugins: [plugin] },
);

test('a private address is refused as for webhooks: Send test says why, and nothing is retried', async (t) => {
  const app = await startTestApp('sqlite', { plugins: [plugin] });
  try {
    const u = await app.user('free');
    const form = await makeForm(app, u.key);
    const hook = await receiver();
    const created = await app.api('POST', `/forms/${form.id}/integrations`, { key: u.key, body: { type: 'echo', config: { url: hook.url } } });
    const r = await app.api('POST', `/forms/${form.id}/integrations/${created.body.id}/test`, { key: u.key });
    t.like(r.body, { ok: false, response_code: null });
    t.regex(r.body.error, /Refused: 127\.0\.0\.1 is not a public address/);
    t.is(hook.got.length, 0);
    await hook.close();
  } finally {
    await app.close();
  }
});
