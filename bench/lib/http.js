'use strict';
// Small JSON-over-HTTP helpers for seeding (not used for measuring: that is autocannon's job).

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

module.exports = { requestJson, mapLimit };
