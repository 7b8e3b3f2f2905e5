import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { translatorConformance } from '@formloom/core/testing';
import { createLibreTranslateTranslator } from '../src';

/*
 * Against a local server speaking LibreTranslate's `POST /translate` (JSON `q` list, `source`, `target`,
 * `api_key`; `translatedText` list, `{error}` on refusal): it "translates" by prefixing the target language.
 */
let server: Server;
let url = '';
let calls = 0;
const bodies: any[] = [];
test.before(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || req.url !== '/translate') return send(404, { error: 'Not found' });
      calls++;
      const body = JSON.parse(raw);
      bodies.push(body);
      if (body.api_key !== 'secret') return send(403, { error: 'Invalid API key' });
      const q: string[] = Array.isArray(body.q) ? body.q : [body.q];
      send(200, { translatedText: q.map((x) => `[${body.target}] ${x}`) });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after.always(() => new Promise<void>((r) => server.close(() => r())));

translatorConformance(test, {
  name: 'libretranslate',
  create: () => createLibreTranslateTranslator({ url, apiKey: 'secret' }),
  createRefused: () => createLibreTranslateTranslator({ url, apiKey: 'wrong' }),
  expected: (text, _from, to) => `[${to.split('-')[0]!.toLowerCase()}] ${text}`,
  calls: () => calls,
});

test('sends the languages by their first part, as text', async (t) => {
  await createLibreTranslateTranslator({ url, apiKey: 'secret' }).translate(['Oi'], 'pt-BR', 'de');
  t.like(bodies.at(-1), { source: 'pt', target: 'de', format: 'text', q: ['Oi'] });
});

test('an unreachable server is a TranslatorError with status 0', async (t) => {
  const e = await t.throwsAsync(createLibreTranslateTranslator({ url: 'http://127.0.0.1:9' }).translate(['Hi'], 'en', 'de'));
  t.is((e as any).status, 0);
});
