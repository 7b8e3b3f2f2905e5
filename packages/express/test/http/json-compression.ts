import { request } from 'node:http';
import test from '../helpers/bounded-test';
import { startTestApp } from '../helpers/app';

/*
 * Public JSON answers are compressed for clients that accept it; the owners' endpoints never are
 * (json-compression.ts, docs/respondents.md "Speed").
 */

/** The answer's status and Content-Encoding, read with a raw request (fetch would hide the encoding). */
function encodingOf(url: string, headers: Record<string, string>): Promise<{ status: number; encoding: string | null }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, encoding: (res.headers['content-encoding'] as string | undefined) ?? null }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('a published form is gzip or brotli as asked; the owner\'s read of it is plain', async (t) => {
  const app = await startTestApp('sqlite');
  t.teardown(() => app.close());
  const { key } = await app.user();
  const questions = Array.from({ length: 12 }, (_, i) => ({ type: 'short_text', title: `Question number ${i + 1}, long enough to compress` }));
  const form = (await app.api('POST', '/forms', { key, body: { title: 'Compressed', published: true, questions } })).body;
  const pub = `${app.url}/api/v1/public/forms/${form.slug}`;
  t.deepEqual(await encodingOf(pub, { 'accept-encoding': 'gzip' }), { status: 200, encoding: 'gzip' });
  t.deepEqual(await encodingOf(pub, { 'accept-encoding': 'br' }), { status: 200, encoding: 'br' });
  t.deepEqual(await encodingOf(pub, {}), { status: 200, encoding: null });
  // A submission's answer (a write) is plain whatever the client accepts.
  const sent = await new Promise<{ status: number; encoding: string | null }>((resolve, reject) => {
    const body = JSON.stringify({ answers: [{ question_id: form.questions[0].id, value: 'x'.repeat(3000) }] });
    const req = request(`${pub}/responses`, { method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, br' } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, encoding: (res.headers['content-encoding'] as string | undefined) ?? null }));
    });
    req.on('error', reject);
    req.end(body);
  });
  t.deepEqual(sent, { status: 201, encoding: null });
  const own = { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip, br' };
  t.deepEqual(await encodingOf(`${app.url}/api/v1/forms/${form.id}`, own), { status: 200, encoding: null });
  t.deepEqual(await encodingOf(`${app.url}/api/v1/forms`, own), { status: 200, encoding: null });
});
