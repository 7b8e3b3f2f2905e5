import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { runCli } from '@formloom/cli';
import { startSelfHosted } from '../src';
import { lazyEngine, type ClosableEngine } from '../src/lazy-voice';

/*
 * The voice API's packages load at their first use (docs/benchmarks.md, "Where the memory goes"): an app that
 * never speaks never loads them, and the first voice request finds them working.
 */

const loaded = (pkg: string) => Object.keys(require.cache).some((path) => path.includes(`/packages/${pkg}/`) || path.includes(`/@formloom/${pkg}/`));

test('a lazy engine is made at its first use, once; closing one never used makes nothing', async (t) => {
  let made = 0;
  const fake: ClosableEngine = {
    id: 'fake',
    voices: async () => [{ id: 'v', name: 'V', language: 'en', sampleRate: 16000 }],
    synthesize: async function* () {
      yield { samples: new Int16Array(4), sampleRate: 16000, channels: 1 };
    },
    close: async () => undefined,
  };
  const unused = lazyEngine('fake', () => (made++, fake));
  await unused.close();
  t.is(made, 0);
  const engine = lazyEngine('fake', () => (made++, fake));
  t.is(engine.id, 'fake');
  const chunks = [];
  for await (const c of engine.synthesize({ text: 'Hi', voice: 'v', speed: 1 })) chunks.push(c);
  t.is(chunks.length, 1);
  t.deepEqual((await engine.voices()).map((v) => v.id), ['v']);
  t.is(made, 1);
  const misnamed = lazyEngine('other', () => fake);
  await t.throwsAsync(() => misnamed.voices(), { message: /registered as other/ });
});

test('the app starts without the speech and audio packages, and its first voice request loads them', async (t) => {
  t.timeout(120_000);
  const dir = mkdtempSync(join(tmpdir(), 'formloom-lazy-voice-'));
  const env = { PORT: '0', FORMLOOM_DATA_DIR: dir, FORMLOOM_DATABASE_URL: `sqlite:${join(dir, 'formloom.sqlite')}` };
  const app = await startSelfHosted(env, { write: () => undefined });
  t.teardown(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });
  t.deepEqual(['speech-espeak', 'speech-flite', 'audio'].filter(loaded), [], 'nothing of the voice API is loaded at start');

  // As docs/voice.md sets an account up: verified, with credits, and a key of scope voice.
  t.is((await runCli(['user', 'create', '--email', 'voice@example.com', '--verified'], env)).code, 0);
  t.is((await runCli(['credits', 'purchase', '--user', 'voice@example.com', '--credits', '500'], env)).code, 0);
  const { api_key } = JSON.parse((await runCli(['key', 'create', '--user', 'voice@example.com', '--scope', 'voice'], env)).stdout) as { api_key: string };
  const auth = { authorization: `Bearer ${api_key}` };
  const list = await fetch(`${app.url}/api/v1/voice/voices`, { headers: auth });
  t.is(list.status, 200);
  const voices = ((await list.json()) as { data: Array<{ id: string; engine: string }> }).data;
  t.deepEqual([...new Set(voices.map((v) => v.engine))].sort(), ['espeak', 'flite']);

  const res = await fetch(`${app.url}/api/v1/voice`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ mode: 'speak', text: 'Hello there.', voice: voices.find((v) => v.engine === 'flite')!.id, format: 'wav' }),
  });
  t.is(res.status, 200, await res.clone().text());
  t.is(((await res.json()) as { data: { status: string } }).data.status, 'ready');
  t.deepEqual(['speech-flite', 'audio'].filter(loaded), ['speech-flite', 'audio']);
});
