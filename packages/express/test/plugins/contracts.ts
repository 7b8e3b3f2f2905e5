import test from '../helpers/bounded-test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import { checkRouteAnswer, createFormloom, definePlugin, defineRoute, formOut, named, PluginConfigError, type FormloomPlugin, type PluginRoute } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter } from '../../src';

/** A plugin whose one route declares `body` with the given schema. */
const withBody = (name: string, body: unknown): FormloomPlugin =>
  definePlugin({
    name,
    version: '1.0.0',
    routes: () => [{ method: 'post', path: `/${name}/items`, scope: 'forms', summary: 'Adds', tags: [name], body: body as z.ZodType, handler: async () => ({ body: { ok: true } }) }],
  });

async function serve(router: express.Router): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.use('/api/v1', router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, close: () => server.close() };
}

test('a plugin built with another major of zod is refused by createFormloom, naming the plugin, the route and the fix', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const error = t.throws(() => createFormloom({ storage: db.storage, plugins: [withBody('legacy', z3.object({ count: z3.number() }))] }));
  t.true(error instanceof PluginConfigError);
  t.regex(error!.message, /^plugin "legacy", route POST \/legacy\/items: `body` was built with zod 3, but Formloom validates and documents with zod 4\. Declare "zod": "\^4"/);
  // Any other slot too, and a value that is no schema at all.
  const answer = definePlugin({
    name: 'answers',
    version: '1',
    routes: () => [{ method: 'get', path: '/answers', scope: 'public', summary: 's', tags: ['a'], success: { status: 200, description: 'x', schema: z3.string() as never }, handler: async () => ({ body: 'x' }) }],
  });
  t.throws(() => createFormloom({ storage: db.storage, plugins: [answer] }), { message: /`success\.schema` was built with zod 3/ });
  t.throws(() => createFormloom({ storage: db.storage, plugins: [withBody('plain', { type: 'object' })] }), { message: 'plugin "plain", route POST /plain/items: `body` is not a zod schema' });
  // The same plugin with zod 4 loads, and the document answers with its route.
  const fine = createFormloom({ storage: db.storage, plugins: [withBody('modern', z.object({ count: z.number() }))] });
  const server = await serve(createFormloomRouter({ formloom: fine, rateLimits: false }));
  t.teardown(server.close);
  const res = await fetch(`${server.url}/openapi.json`);
  t.is(res.status, 200);
  t.truthy(((await res.json()) as any).paths['/modern/items'].post.requestBody);
});

test('one plugin can never break the document: a route that cannot be documented stops the mount, naming it', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  // A plugin that registers its own answer under the name of a built-in component (`Form`).
  const clash = definePlugin({
    name: 'clash',
    version: '1',
    routes: () => [
      { method: 'get', path: '/clash', scope: 'public', summary: 's', tags: ['c'], success: { status: 200, description: 'x', schema: named('Form', z.object({ other: z.string() })) }, handler: async () => ({ body: { other: 'x' } }) },
    ],
  });
  const formloom = createFormloom({ storage: db.storage, plugins: [clash] });
  t.throws(() => createFormloomRouter({ formloom, rateLimits: false }), { message: /^GET \/clash \(getClash\) cannot be documented: Two different schemas are named Form/ });
  // Two of the plugins' own routes naming different schemas alike clash as well; answering the built-in Form itself does not.
  const twice = (path: string, schema: z.ZodType) => ({ method: 'get' as const, path, scope: 'public' as const, summary: 's', tags: ['t'], success: { status: 200, description: 'x', schema }, handler: async () => ({ body: {} }) });
  const own = definePlugin({ name: 'own', version: '1', routes: () => [twice('/own/a', named('OwnThing', z.object({ a: z.string() }))), twice('/own/b', named('OwnThing', z.object({ b: z.string() })))] });
  t.throws(() => createFormloomRouter({ formloom: createFormloom({ storage: db.storage, plugins: [own] }), rateLimits: false }), { message: /^GET \/own\/b \(getOwnB\) cannot be documented: Two different schemas are named OwnThing/ });
  const reuse = definePlugin({ name: 'reuse', version: '1', routes: () => [twice('/reuse', formOut)] });
  t.notThrows(() => createFormloomRouter({ formloom: createFormloom({ storage: db.storage, plugins: [reuse] }), rateLimits: false }));
  // Without it, the same storage serves the document.
  const server = await serve(createFormloomRouter({ formloom: createFormloom({ storage: db.storage }), rateLimits: false }));
  t.teardown(server.close);
  t.is((await fetch(`${server.url}/openapi.json`)).status, 200);
});

test('plugin routes get typed body, query and principal from what they declare', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const typed = definePlugin({
    name: 'typed',
    version: '1',
    routes: () => [
      defineRoute({
        method: 'post',
        path: '/typed/:id',
        scope: 'forms',
        summary: 'Typed',
        tags: ['typed'],
        body: z.object({ count: z.number().int() }),
        query: z.object({ n: z.coerce.number().int().optional() }),
        success: { status: 200, description: 'x', schema: z.object({ total: z.number(), user: z.string() }) },
        handler: async (req) => {
          // Compiles only with typed values: a number, a number or undefined, a principal (not null).
          const count: number = req.body.count;
          const n: number | undefined = req.query.n;
          const user: string = req.principal.user_id;
          return { body: { total: count + (n ?? 0), user } };
        },
      }),
      defineRoute({
        method: 'get',
        path: '/typed-public',
        scope: 'public',
        summary: 'Public',
        tags: ['typed'],
        handler: async (req) => {
          const none: null = req.principal;
          return { body: { anonymous: none === null } };
        },
      }),
    ],
  });
  const formloom = createFormloom({ storage: db.storage, plugins: [typed] });
  const user = await formloom.accounts.createUser({ email: 'typed@example.com' });
  const { api_key: key } = await formloom.accounts.createKey(user.id, { scope: 'forms' });
  const server = await serve(createFormloomRouter({ formloom, rateLimits: false }));
  t.teardown(server.close);
  const res = await fetch(`${server.url}/typed/x?n=2`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ count: 40 }) });
  t.deepEqual(await res.json(), { total: 42, user: user.id });
  t.deepEqual(await (await fetch(`${server.url}/typed-public`)).json(), { anonymous: true });
});

test('answers are checked against success.schema: strictResponses answers 500 on drift, checkRouteAnswer throws', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const drifting: PluginRoute = {
    method: 'get',
    path: '/drift/:what',
    scope: 'public',
    summary: 'Drifts',
    tags: ['drift'],
    success: { status: 200, description: 'x', schema: z.object({ id: z.string() }) },
    handler: async (req) => ({ body: req.params.what === 'extra' ? { id: 'a', secret: 'leaked' } : req.params.what === 'status' ? { id: 'a' } : { id: 'a' }, status: req.params.what === 'status' ? 201 : 200 }),
  };
  const plugin = definePlugin({ name: 'drift', version: '1', routes: () => [drifting] });
  const logged: string[] = [];
  const logger = { error: (m: string, e: unknown) => logged.push(`${m} ${e instanceof Error ? e.message : ''}`) };
  const strict = await serve(createFormloomRouter({ formloom: createFormloom({ storage: db.storage, plugins: [plugin], strictResponses: true }), rateLimits: false, logger }));
  const lax = await serve(createFormloomRouter({ formloom: createFormloom({ storage: db.storage, plugins: [plugin] }), rateLimits: false }));
  t.teardown(() => (strict.close(), lax.close()));
  t.is((await fetch(`${strict.url}/drift/ok`)).status, 200);
  const extra = await fetch(`${strict.url}/drift/extra`);
  t.is(extra.status, 500);
  t.is(((await extra.json()) as any).error.code, 'INTERNAL_ERROR');
  t.is((await fetch(`${strict.url}/drift/status`)).status, 500);
  t.true(logged.some((l) => /GET \/drift\/:what answered what it does not document: the body has more than success\.schema says: \$\.secret is not in the schema/.test(l)), logged.join('\n'));
  t.true(logged.some((l) => /answered 201, documented 200/.test(l)));
  // Without the option the answer goes out as the handler made it.
  t.deepEqual(await (await fetch(`${lax.url}/drift/extra`)).json(), { id: 'a', secret: 'leaked' });
  // In a plugin's own unit test, without a server.
  const req = (what: string) => ({ params: { what }, query: {}, body: undefined, headers: {}, principal: null, ip: null, baseUrl: '', signal: new AbortController().signal, formloom: undefined });
  await t.notThrowsAsync(checkRouteAnswer(drifting, req('ok')));
  await t.throwsAsync(checkRouteAnswer(drifting, req('extra')), { message: 'GET /drift/:what: the body has more than success.schema says: $.secret is not in the schema' });
});
