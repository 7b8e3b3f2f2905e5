import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDestinationRefused } from '@formloom/core';
import test from 'ava';
import { createHttpWebhookTransport } from '../src';

/* `request`, what integrations send through `ctx.http` (docs/integrations.md): any method, headers and the body back, the same guard. */

async function server() {
  const seen: Array<{ method: string; body: string; type: string | undefined }> = [];
  const s: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, body, type: req.headers['content-type'] });
      if (req.url === '/moved') return res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'r1' });
      res.end(JSON.stringify({ ok: true, pad: 'x'.repeat(5000) }));
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`, seen, close: () => new Promise((r) => s.close(r)) };
}

test('any method with a body; the answer with its headers and body up to maxBodyBytes; redirects not followed', async (t) => {
  const s = await server();
  const transport = createHttpWebhookTransport({ allowPrivate: true });
  const a = await transport.request!({ url: `${s.url}/x`, method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"a":1}', timeoutMs: 5000, maxBodyBytes: 1 << 20 });
  t.is(a.status, 200);
  t.is(a.headers['x-request-id'], 'r1');
  t.true(JSON.parse(a.body).ok);
  t.deepEqual(s.seen[0], { method: 'PATCH', body: '{"a":1}', type: 'application/json' });
  const get = await transport.request!({ url: `${s.url}/x`, method: 'GET', headers: {}, timeoutMs: 5000, maxBodyBytes: 10 });
  t.is(get.body.length, 10, 'at most maxBodyBytes kept');
  t.is((await transport.request!({ url: `${s.url}/moved`, method: 'GET', headers: {}, timeoutMs: 5000, maxBodyBytes: 100 })).status, 302);
  await s.close();
});

test('private and malformed destinations are refused before anything is sent', async (t) => {
  const s = await server();
  const transport = createHttpWebhookTransport();
  for (const url of [`${s.url}/x`, 'http://localhost:1/', 'http://[::1]/', 'ftp://example.com/', 'not a url']) {
    const e = await t.throwsAsync(transport.request!({ url, method: 'GET', headers: {}, timeoutMs: 5000, maxBodyBytes: 100 }));
    t.true(isDestinationRefused(e), url);
  }
  t.is(s.seen.length, 0);
  await s.close();
});
