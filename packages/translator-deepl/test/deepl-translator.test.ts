import test from 'ava';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { translatorConformance } from '@formloom/core/testing';
import { createDeepLTranslator } from '../src';

/*
 * deepl-node pointed (serverUrl) at a local server speaking DeepL's `POST /v2/translate` (`Authorization:
 * DeepL-Auth-Key`, repeated `text`, `source_lang`, `target_lang`; `{translations: [{text}]}`, 403 for a bad key):
 * it "translates" by prefixing the target language.
 */
let server: Server;
let url = '';
let calls = 0;
const seen: Array<{ source: unknown; target: unknown }> = [];
test.before(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.method !== 'POST' || !req.url?.startsWith('/v2/translate')) return send(404, { message: 'Not found' });
      calls++;
      if (req.headers.authorization !== 'DeepL-Auth-Key good-key') return send(403, { message: 'Wrong endpoint or invalid key' });
      let texts: string[];
      let source: unknown;
      let target: string;
      if (String(req.headers['content-type']).includes('json')) {
        const b = JSON.parse(raw);
        texts = b.text;
        source = b.source_lang;
        target = b.target_lang;
      } else {
        const p = new URLSearchParams(raw);
        texts = p.getAll('text');
        source = p.get('source_lang');
        target = p.get('target_lang')!;
      }
      seen.push({ source, target });
      send(200, { translations: texts.map((x) => ({ detected_source_language: String(source ?? 'EN').toUpperCase(), text: `[${target.toLowerCase()}] ${x}` })) });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.after.always(() => new Promise<void>((r) => server.close(() => r())));

const target = (to: string) => (to === 'en' ? 'en-us' : to === 'pt' ? 'pt-pt' : to.toLowerCase());

translatorConformance(test, {
  name: 'deepl',
  create: () => createDeepLTranslator({ authKey: 'good-key', serverUrl: url }),
  createRefused: () => createDeepLTranslator({ authKey: 'bad-key', serverUrl: url, maxRetries: 0 }),
  expected: (text, _from, to) => `[${target(to)}] ${text}`,
  calls: () => calls,
});

test('English and Portuguese targets get a region; sources none', async (t) => {
  const translator = createDeepLTranslator({ authKey: 'good-key', serverUrl: url });
  t.deepEqual(await translator.translate(['Hallo'], 'de-AT', 'en'), ['[en-us] Hallo']);
  t.deepEqual(await translator.translate(['Hello'], 'en', 'pt'), ['[pt-pt] Hello']);
  t.is(String(seen.at(-1)!.source).toLowerCase(), 'en');
});
