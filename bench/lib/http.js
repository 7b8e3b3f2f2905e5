'use strict';
// Small JSON-over-HTTP helpers for seeding, and `timedRequest` for the scenarios that measure single
// requests themselves (sequential timings, streamed exports, webhook submissions) rather than with autocannon.
const http = require('node:http');
const { monoMs } = require('./stats');

/** `fetch` a JSON API; throws with the body on a non-2xx status. */
async function requestJson(baseUrl, method, path, { apiKey, body } = {}) {
  const headers = { accept: 'application/json' };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(baseUrl + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30000),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
  return { status: res.status, bytes: Buffer.byteLength(text), body: text ? JSON.parse(text) : null };
}

/** Runs `fn(i)` for i in 0..count-1 with at most `concurrency` in flight; resolves with the results in order. */
async function mapLimit(count, concurrency, fn) {
  const out = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      out[i] = await fn(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return out;
}

/**
 * One HTTP request on node:http (keep-alive `agent` recommended), timed on the monotonic clock (ms):
 * `sent_ms` (request ended), `headers_ms` (status line received), `end_ms` (last body byte). The body is
 * kept as text unless `onChunk` is given, which then sees every chunk (Buffer) and the body is dropped.
 */
function timedRequest(baseUrl, method, path, { apiKey, body, agent, onChunk, headers = {}, timeoutMs = 120000 } = {}) {
  return new Promise((resolve, reject) => {
    const h = { accept: '*/*', ...headers };
    if (apiKey) h.authorization = `Bearer ${apiKey}`;
    const payload = body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body);
    if (payload !== null) {
      h['content-type'] = 'application/json';
      h['content-length'] = Buffer.byteLength(payload);
    }
    const start_ms = monoMs();
    const req = http.request(baseUrl + path, { method, headers: h, agent }, (res) => {
      const headers_ms = monoMs();
      const chunks = [];
      let bytes = 0;
      res.on('data', (c) => {
        bytes += c.length;
        if (onChunk) onChunk(c);
        else chunks.push(c);
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          headers: res.headers,
          bytes,
          text: onChunk ? null : Buffer.concat(chunks).toString('utf8'),
          start_ms,
          sent_ms,
          headers_ms,
          end_ms: monoMs(),
        }),
      );
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${path}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    let sent_ms = null;
    req.end(payload ?? undefined, () => (sent_ms = monoMs()));
  });
}

module.exports = { requestJson, mapLimit, timedRequest };
