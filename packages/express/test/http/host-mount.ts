import test from '../helpers/bounded-test';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createFormloom, type Formloom } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomErrorHandler, createFormloomRouter, createPublicPagesRouter } from '../../src';
import { DB_KINDS, type DbKind } from '../helpers/app';

/*
 * The arrangements hosts really use (docs/embedding.md "Mounting"): the pages router at the root before the
 * host's own routes, and the host's app-wide `express.json()` before the API router.
 */

async function host(kind: DbKind, build: (app: express.Express, formloom: Formloom) => void) {
  const db = await createTestDatabase(kind);
  const formloom = createFormloom({ storage: db.storage, config: { secretKey: 'test-secret-key' } });
  const app = express();
  build(app, formloom);
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
    // Longer than any pause under load: a reused keep-alive connection is never closed under a request.
    s.keepAliveTimeout = 60_000;
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const user = await formloom.accounts.createUser({ email: `host-${kind}-${Date.now()}@example.com`, plan: 'pro' });
  const { api_key } = await formloom.accounts.createKey(user.id);
  return {
    url,
    key: api_key,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}

const quiet = { error: () => {} };

for (const kind of DB_KINDS) {
  test(`[${kind}] the pages router at the root adds its headers to its own paths only, and leaves the host's errors to the host`, async (t) => {
    const h = await host(kind, (app, formloom) => {
      app.use(createPublicPagesRouter({ formloom, embedOrigins: ['https://shop.example.com'], logger: quiet }));
      app.get('/account/settings', (_req, res) => void res.json({ host: true }));
      app.get('/fail', () => {
        throw new Error('host failure');
      });
      app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => void res.status(500).type('text').send('host error page'));
    });
    try {
      const origin = { origin: 'https://shop.example.com' };
      const own = await fetch(`${h.url}/account/settings`, { headers: origin });
      t.deepEqual(await own.json(), { host: true });
      t.is(own.headers.get('access-control-allow-origin'), null, 'no CORS on the host route');
      t.is(own.headers.get('x-content-type-options'), null, 'no nosniff on the host route');
      t.is(own.headers.get('vary'), null);
      const missing = await fetch(`${h.url}/formloom/assets-not-ours.js`, { headers: origin });
      t.is(missing.status, 404);
      t.is(missing.headers.get('access-control-allow-origin'), null);
      const failed = await fetch(`${h.url}/fail`);
      t.is(failed.status, 500);
      t.is(await failed.text(), 'host error page', "the host's own error handler answers its routes");
      for (const path of ['/embed.js', '/formloom/assets/formloom.css']) {
        const res = await fetch(`${h.url}${path}`, { headers: origin });
        t.is(res.status, 200, path);
        t.is(res.headers.get('access-control-allow-origin'), 'https://shop.example.com', path);
        t.is(res.headers.get('x-content-type-options'), 'nosniff', path);
      }
      const page = await fetch(`${h.url}/f/no-such-form`);
      t.is(page.status, 404);
      t.regex(await page.text(), /This form is not available/);
    } finally {
      await h.close();
    }
  });

  test(`[${kind}] with the host's app-wide express.json() first, bad bodies answer in the structured shape and jsonLimit still applies`, async (t) => {
    const h = await host(kind, (app, formloom) => {
      app.use(express.json({ limit: '10mb' }));
      app.use('/api/v1', createFormloomRouter({ formloom, jsonLimit: '100kb', logger: quiet, rateLimits: false }), createFormloomErrorHandler({ logger: quiet }));
    });
    try {
      const post = (body: string) =>
        fetch(`${h.url}/api/v1/forms`, { method: 'POST', headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' }, body });
      const malformed = await post('{"title": ');
      t.is(malformed.status, 400);
      t.regex(malformed.headers.get('content-type')!, /application\/json/);
      t.like(await malformed.json(), { error: { code: 'BAD_REQUEST', status: 400 } });
      const big = await post(JSON.stringify({ title: 'Big', description: 'x'.repeat(200_000) }));
      t.is(big.status, 413, 'jsonLimit (100kb) applies although the host parsed the body');
      t.like(await big.json(), { error: { code: 'PAYLOAD_TOO_LARGE', status: 413 } });
      const ok = await post(JSON.stringify({ title: 'Fine', questions: [{ type: 'short_text', title: 'Q' }] }));
      t.is(ok.status, 201, await ok.clone().text());
    } finally {
      await h.close();
    }
  });

  test(`[${kind}] with the host's default express.json() first, its own 413 and parse errors become the structured shape`, async (t) => {
    const h = await host(kind, (app, formloom) => {
      app.use(express.json());
      app.use('/api/v1', createFormloomRouter({ formloom, logger: quiet, rateLimits: false }), createFormloomErrorHandler({ logger: quiet }));
      app.post('/host/echo', (req, res) => void res.json(req.body));
    });
    try {
      const big = await fetch(`${h.url}/api/v1/forms`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'x'.repeat(200_000) }),
      });
      t.is(big.status, 413);
      t.like(await big.json(), { error: { code: 'PAYLOAD_TOO_LARGE', status: 413 } });
      const text = await fetch(`${h.url}/api/v1/forms`, { method: 'POST', headers: { authorization: `Bearer ${h.key}`, 'content-type': 'application/json' }, body: '[' });
      t.like(await text.json(), { error: { code: 'BAD_REQUEST' } });
      t.deepEqual(await (await fetch(`${h.url}/host/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })).json(), { a: 1 });
    } finally {
      await h.close();
    }
  });
}
