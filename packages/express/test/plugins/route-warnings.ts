import test from '../helpers/bounded-test';
import { z } from 'zod';
import { createFormloom, definePlugin, type Logger } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { buildOpenApi, createFormloomRouter, routeTable } from '../../src';

/*
 * A plugin route's answer is compared with its success schema only under `strictResponses`, and a route
 * without a schema is documented as any JSON (`{}`): both used to pass in silence. createFormloom now warns
 * about each, through the instance's logger, under the plugin's name (docs/plugins.md, "Checking answers").
 */

function capture() {
  const warned: Array<{ message: string; details?: Record<string, unknown> }> = [];
  const logger: Logger = { info: () => undefined, warn: (message, details) => void warned.push({ message, details }), error: () => undefined };
  return { logger, warned };
}

const plugin = definePlugin({
  name: 'shop',
  version: '1.0.0',
  routes: () => [
    {
      method: 'get',
      path: '/shop/typed',
      scope: 'public',
      summary: 'Typed',
      tags: ['Shop'],
      success: { status: 200, description: '{ok}', schema: z.object({ ok: z.boolean() }) },
      handler: async () => ({ body: { ok: true } }),
    },
    {
      method: 'post',
      path: '/shop/untyped',
      scope: 'public',
      summary: 'Untyped',
      tags: ['Shop'],
      success: { status: 201, description: 'something' },
      handler: async () => ({ status: 201, body: { anything: 1 } }),
    },
    {
      method: 'delete',
      path: '/shop/gone',
      scope: 'public',
      summary: 'Nothing to say',
      tags: ['Shop'],
      success: { status: 204, description: 'deleted' },
      handler: async () => ({ status: 204, body: undefined }),
    },
    {
      method: 'get',
      path: '/shop/file',
      scope: 'public',
      summary: 'A file',
      tags: ['Shop'],
      success: { status: 200, description: 'bytes', media: ['application/pdf'] },
      handler: async () => ({ contentType: 'application/pdf', stream: [Buffer.from('%PDF')] }),
    },
  ],
});

test('createFormloom warns about a plugin route documented as {} and about answers left unchecked', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const { logger, warned } = capture();
  const formloom = createFormloom({ storage: db.storage, plugins: [plugin], logger });
  createFormloomRouter({ formloom });
  t.is(warned.length, 2, JSON.stringify(warned));
  const [untyped, unchecked] = warned;
  t.regex(untyped!.message, /^\[shop\] route POST \/shop\/untyped declares no success\.schema for 201: the OpenAPI document describes that answer as any JSON \(\{\}\)/);
  t.deepEqual(untyped!.details, { route: 'POST /shop/untyped', status: 201 });
  t.regex(unchecked!.message, /^\[shop\] the answers of its routes are not checked against their success schemas: createFormloom\(\{ strictResponses: true \}\)/);
  t.deepEqual(unchecked!.details, { routes: ['GET /shop/typed'] });
  // What the warning says is what the document shows.
  const doc = buildOpenApi(routeTable(formloom), '/api/v1') as any;
  t.deepEqual(doc.paths['/shop/untyped'].post.responses['201'].content, { 'application/json': { schema: {} } });
});

test('with strictResponses only the route without a schema is warned about; the built-in areas never are', async (t) => {
  const db = await createTestDatabase('sqlite');
  t.teardown(() => db.close());
  const strict = capture();
  createFormloom({ storage: db.storage, plugins: [plugin], logger: strict.logger, strictResponses: true });
  t.deepEqual(strict.warned.map((w) => w.details), [{ route: 'POST /shop/untyped', status: 201 }]);
  const bare = capture();
  createFormloom({ storage: db.storage, logger: bare.logger });
  t.deepEqual(bare.warned, []);
});
