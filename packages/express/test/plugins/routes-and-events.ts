import type { AddressInfo } from 'node:net';
import express from 'express';
import test from '../helpers/bounded-test';
import { z } from 'zod';
import { createFormloom, definePlugin, PluginConfigError, type FormloomPlugin } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter } from '../../src';
import { DB_KINDS, startTestApp } from '../helpers/app';

/** A plugin with one route of each kind: validated JSON, authenticated, streamed (and endless, to abort). */
function demoPlugin(seen: { created: string[]; released: (aborted: boolean) => void }): FormloomPlugin<{ greeting: string }> {
  return definePlugin({
    name: 'demo',
    version: '1.2.3',
    options: { greeting: 'hello' },
    on: {
      'form.created': ({ form_id }) => {
        seen.created.push(form_id);
      },
      // A failing listener is logged; it never reaches the service that emitted the event.
      'form.published': () => {
        throw new Error('listener failure');
      },
    },
    routes: (ctx) => [
      {
        method: 'post',
        path: '/demo/greet',
        scope: 'public',
        summary: 'Greets',
        tags: ['Demo'],
        body: z.object({ name: z.string().min(1) }).strict(),
        success: { status: 201, description: '{message}' },
        errors: [400],
        handler: async (req) => ({ status: 201, body: { message: `${ctx.options.greeting} ${(req.body as { name: string }).name}` } }),
      },
      {
        method: 'get',
        path: '/demo/me/:thing',
        scope: 'forms',
        summary: 'Who am I',
        tags: ['Demo'],
        handler: async (req) => ({ body: { user_id: req.principal?.user_id, thing: req.params.thing, q: req.query.q, base: req.baseUrl } }),
      },
      {
        method: 'get',
        path: '/demo/lines',
        scope: 'public',
        summary: 'Streams numbered lines',
        tags: ['Demo'],
        query: z.object({ n: z.coerce.number().int().min(0).max(1000).optional().describe('how many lines (endless without)') }).strict(),
        handler: async (req) => ({
          contentType: 'text/plain; charset=utf-8',
          attachment: 'lines.txt',
          stream: (async function* () {
            const n = req.query.n === undefined ? NaN : (req.query.n as number);
            try {
              for (let i = 0; Number.isNaN(n) || i < n; i++) yield `line ${i}\n`.repeat(Number.isNaN(n) ? 1000 : 1);
            } finally {
              if (Number.isNaN(n)) seen.released(req.signal.aborted);
            }
          })(),
        }),
      },
    ],
  });
}

for (const kind of DB_KINDS) {
  test(`[${kind}] plugin routes are served, validated and documented like the built-in ones; listeners run`, async (t) => {
    let released!: (aborted: boolean) => void;
    const endlessReleased = new Promise<boolean>((ok) => (released = ok));
    const seen = { created: [] as string[], released };
    const app = await startTestApp(kind, { plugins: [demoPlugin(seen)] });
    t.teardown(() => app.close());
    const me = await app.user('pro');

    t.deepEqual(app.formloom.plugins.at(-1), { name: 'demo', version: '1.2.3' });
    const ok = await app.api('POST', '/demo/greet', { body: { name: 'Ada' } });
    t.deepEqual([ok.status, ok.body], [201, { message: 'hello Ada' }]);
    const bad = await app.api('POST', '/demo/greet', { body: { name: '' } });
    t.is(bad.status, 400);
    t.like(bad.body, { error: { code: 'BAD_REQUEST', status: 400, field: 'name' } });
    const extra = await app.api('POST', '/demo/greet', { body: { name: 'Ada', admin: true } });
    t.like(extra.body, { error: { code: 'BAD_REQUEST', field: 'admin' } });

    t.is((await app.api('GET', '/demo/me/x')).status, 401);
    const who = await app.api('GET', '/demo/me/box?q=1', { key: me.key });
    t.deepEqual(who.body, { user_id: me.id, thing: 'box', q: '1', base: '/api/v1' });

    const lines = await fetch(`${app.url}/api/v1/demo/lines?n=3`);
    t.is(lines.status, 200);
    t.is(lines.headers.get('content-type'), 'text/plain; charset=utf-8');
    t.regex(lines.headers.get('content-disposition') ?? '', /^attachment; filename="?lines\.txt"?$/);
    t.is(await lines.text(), 'line 0\nline 1\nline 2\n');
    const badQuery = await app.api('GET', '/demo/lines?n=many');
    t.is(badQuery.status, 400);
    t.like(badQuery.body, { error: { code: 'BAD_REQUEST', field: 'n' } });
    t.like((await app.api('GET', '/demo/lines?n=1&x=2')).body, { error: { code: 'BAD_REQUEST', field: 'x' } });

    // A client that reads a little of an endless stream and goes away ends the source's iteration.
    const controller = new AbortController();
    const endless = await fetch(`${app.url}/api/v1/demo/lines`, { signal: controller.signal });
    const reader = endless.body!.getReader();
    t.false((await reader.read()).done);
    controller.abort();
    t.true(await endlessReleased, 'the handler saw its signal aborted');

    const doc = (await app.api('GET', '/openapi.json')).body;
    t.like(doc.paths['/demo/greet'].post, { tags: ['Demo'], security: [] });
    t.deepEqual(doc.paths['/demo/greet'].post.requestBody.content['application/json'].schema.required, ['name']);
    t.like(doc.paths['/demo/me/{thing}'].get, { security: [{ apiKey: [] }] });
    t.like(doc.paths['/demo/lines'].get.parameters[0], { name: 'n', in: 'query', description: 'how many lines (endless without)' });

    const form = await app.api('POST', '/forms', { key: me.key, body: { title: 'T', questions: [{ type: 'short_text', title: 'Q' }] } });
    t.is(form.status, 201);
    t.deepEqual(seen.created, [form.body.id]);
    t.is((await app.api('POST', `/forms/${form.body.id}/publish`, { key: me.key })).status, 200);
  });
}

test('createFormloom refuses two outbox handlers for one kind and a plugin adapter for a port the host set; the router a shadowed route', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const handler = { kind: 'mail', handle: async () => ({ status: 'delivered' as const }) };
  const error = t.throws(() => createFormloom({ storage: db.storage, plugins: [{ name: 'x', version: '1', outboxHandlers: () => [handler] }] }));
  t.true(error instanceof PluginConfigError);
  t.is(error!.message, 'Two outbox handlers for the kind "mail" (the second from plugin "x")');
  const clock = { now: () => new Date(0) };
  t.throws(() => createFormloom({ storage: db.storage, clock, plugins: [{ name: 'y', version: '1', adapters: { clock } }] }), {
    message: 'Two adapters for the clock port: the host options and plugin "y"',
  });
  // A plugin route on a path a built-in route already serves would never be reached.
  const shadow = createFormloom({
    storage: db.storage,
    plugins: [{ name: 'w', version: '1', routes: () => [{ method: 'get', path: '/forms/:x', scope: 'public', summary: 's', tags: [], handler: async () => ({ body: {} }) }] }],
  });
  t.throws(() => createFormloomRouter({ formloom: shadow }), { message: 'Two routes for GET /forms/:x: each method and path may be served once' });
  const misdeclared = createFormloom({
    storage: db.storage,
    plugins: [{ name: 'v', version: '1', routes: () => [{ method: 'get', path: 'no-slash', scope: 'public', summary: 's', tags: [], handler: async () => ({ body: {} }) }] }],
  });
  t.throws(() => createFormloomRouter({ formloom: misdeclared }), { message: 'plugin "v", route get no-slash: path must start with /' });
  // Speech engines: several side by side, one per id.
  const engine = (id: string) => ({ id, voices: async () => [], synthesize: async function* () {} });
  const speaking = createFormloom({
    storage: db.storage,
    speechEngines: [engine('espeak')],
    plugins: [{ name: 'tts', version: '1', speechEngines: () => [engine('flite')] }],
  });
  t.deepEqual(speaking.speechEngines.map((e) => e.id), ['espeak', 'flite']);
  t.throws(() => createFormloom({ storage: db.storage, speechEngines: [engine('flite')], plugins: [{ name: 'tts', version: '1', speechEngines: () => [engine('flite')] }] }), {
    message: 'Two speech engines with the id "flite": the host options and plugin "tts"',
  });
  // An adapter factory gets the storage and the plugin's options.
  const built = createFormloom({
    storage: db.storage,
    plugins: [{ name: 'z', version: '1', options: { at: 86_400_000 }, adapters: { clock: ({ options }) => ({ now: () => new Date(options.at) }) } }],
  });
  const user = await built.accounts.createUser({ email: 'z@example.com' });
  t.is(user.created_at, '1970-01-02T00:00:00.000Z');
});

test('a stream that fails half-way cuts the connection and is logged; the server keeps serving', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const formloom = createFormloom({
    storage: db.storage,
    plugins: [
      {
        name: 'broken',
        version: '1',
        routes: () => [
          {
            method: 'get',
            path: '/broken',
            scope: 'public',
            summary: 'Fails after one chunk',
            tags: [],
            handler: async () => ({
              contentType: 'text/plain',
              stream: (async function* () {
                yield 'first chunk\n';
                throw new Error('disk on fire');
              })(),
            }),
          },
        ],
      },
    ],
  });
  const logged: string[] = [];
  const app = express().use('/api/v1', createFormloomRouter({ formloom, logger: { error: (m, e) => logged.push(`${m}: ${(e as Error).message}`) } }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((ok) => server.once('listening', ok));
  t.teardown(() => new Promise<void>((ok) => server.close(() => ok())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const res = await fetch(`${url}/broken`);
  t.is(res.status, 200);
  await t.throwsAsync(res.text());
  t.deepEqual(logged, ['Streamed answer failed: disk on fire']);
  t.is((await fetch(`${url}/openapi.json`)).status, 200);
});
