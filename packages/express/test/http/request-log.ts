import type { AddressInfo } from 'node:net';
import test from '../helpers/bounded-test';
import express from 'express';
import { createFormloom } from '@formloom/core';
import { createTestDatabase } from '@formloom/storage-typeorm/testing';
import { createFormloomRouter, createPublicPagesRouter, requestLogging, type FormloomRouterOptions } from '../../src';

/** A host app mounting the router with `options`, on an ephemeral port. */
async function host(t: import('ava').ExecutionContext, options: Omit<FormloomRouterOptions, 'formloom'>) {
  const db = await createTestDatabase('sqlite');
  const formloom = createFormloom({ storage: db.storage, config: { secretKey: 'k' } });
  const server = express().use('/api/v1', createFormloomRouter({ formloom, ...options })).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(async () => {
    await new Promise((r) => server.close(r));
    await db.close();
  });
  const { api_key } = await formloom.accounts.createKey((await formloom.accounts.createUser({ email: 'h@example.com', plan: 'pro' })).id);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, key: api_key };
}

test('a pino-like `logger` gets one line per request with the route pattern and no credentials', async (t) => {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) => void lines.push({ level, fields, message });
  const { url, key } = await host(t, { logger: { info: at('info'), warn: at('warn'), error: at('error') } });
  const ok = await fetch(`${url}/forms`, { headers: { authorization: `Bearer ${key}`, 'x-request-id': 'host-42' } });
  t.is(ok.headers.get('x-request-id'), 'host-42');
  const denied = await fetch(`${url}/forms/frm_secretish`, { headers: { authorization: 'Bearer fl_wrong_key_123' } });
  t.is(denied.status, 401);
  t.truthy(denied.headers.get('x-request-id'));
  await new Promise((r) => setImmediate(r));
  t.like(lines.find((l) => l.fields.request_id === 'host-42'), { level: 'info', message: 'request', fields: { method: 'GET', route: '/api/v1/forms', status: 200 } });
  t.like(lines.find((l) => l.fields.request_id === denied.headers.get('x-request-id')), { fields: { route: '/api/v1/forms/:id', status: 401 } });
  const text = JSON.stringify(lines);
  t.false(text.includes(key));
  t.false(text.includes('fl_wrong_key_123'));
  t.false(text.includes('frm_secretish'));
});

test('without a `logger` the router writes no request lines but still answers with X-Request-Id', async (t) => {
  const { url, key } = await host(t, {});
  const res = await fetch(`${url}/forms`, { headers: { authorization: `Bearer ${key}` } });
  t.is(res.status, 200);
  t.regex(res.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('routes of several patterns (the workspace screens, the pages assets) log the pattern that answered', async (t) => {
  const lines: Array<Record<string, unknown>> = [];
  const logger = { info: (f: Record<string, unknown>) => void lines.push(f), warn: (f: Record<string, unknown>) => void lines.push(f), error: () => undefined };
  const db = await createTestDatabase('sqlite');
  const formloom = createFormloom({ storage: db.storage, config: { secretKey: 'k' } });
  // As the self-hosted app mounts them: one request line for the app, the pages router, then the workspace's
  // screens, served by one route of many patterns (as `createWorkspaceRouter` serves them).
  const app = express().use(requestLogging(logger)).use('/', createPublicPagesRouter({ formloom, logger }));
  const screens = express.Router().get(['/', '/signup', '/forms/:id', '/forms/:id/:tab', '/workspace/*path'], (_req, res) => void res.type('html').send('<!doctype html>'));
  app.use('/', screens);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  t.teardown(async () => {
    await new Promise((r) => server.close(r));
    await db.close();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const routeOf = async (path: string) => {
    const res = await fetch(`${base}${path}`);
    await res.arrayBuffer();
    const id = res.headers.get('x-request-id');
    let line: Record<string, unknown> | undefined;
    for (let i = 0; i < 400 && !(line = lines.find((l) => l.request_id === id)); i++) await new Promise((r) => setTimeout(r, 10));
    return { status: res.status, route: line?.route };
  };
  t.deepEqual(await routeOf('/'), { status: 200, route: '/' });
  t.deepEqual(await routeOf('/signup'), { status: 200, route: '/signup' });
  t.deepEqual(await routeOf('/signup/'), { status: 200, route: '/signup' });
  t.deepEqual(await routeOf('/forms/frm_secretish/results'), { status: 200, route: '/forms/:id/:tab' });
  t.deepEqual(await routeOf('/workspace/assets/x/y.js'), { status: 200, route: '/workspace/*path' });
  t.deepEqual(await routeOf('/embed.js'), { status: 200, route: '/embed.js' });
  t.like(await routeOf('/no/such/page'), { status: 404, route: '(unmatched)' });
  t.false(JSON.stringify(lines).includes('frm_secretish'));
});
