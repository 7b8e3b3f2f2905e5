import { join } from 'node:path';
import test from 'ava';
import type { PcmChunk, SynthesisRequest } from '@formloom/core';
import { createEspeakEngine, EspeakWorkerCrashedError, type EspeakEngine } from '../src';
import { waitFor } from '@formloom/core/testing';
import { gone } from './helpers/processes';
import { buildVoices, voiceForLanguage } from '../src/voices';

async function collect(engine: EspeakEngine, request: Partial<SynthesisRequest>): Promise<PcmChunk[]> {
  const chunks: PcmChunk[] = [];
  for await (const chunk of engine.synthesize({ text: '', voice: 'en-us', speed: 1, ...request })) chunks.push(chunk);
  return chunks;
}

// One engine for the tests that need no special set-up: every engine loads 24 MB of voice data per process.
let shared: EspeakEngine | undefined;
test.before(() => {
  shared = createEspeakEngine();
});
test.after.always(() => shared?.close());
const engineOf = (): EspeakEngine => {
  if (!shared) throw new Error('no engine');
  return shared;
};

function rms(chunks: PcmChunk[]): number {
  let sum = 0;
  let count = 0;
  for (const chunk of chunks) {
    for (const sample of chunk.samples) sum += (sample / 32768) ** 2;
    count += chunk.samples.length;
  }
  return count ? Math.sqrt(sum / count) : 0;
}

test('every language of the voice data is listed, with clearer English variants', async (t) => {
  const engine = engineOf();
  const voices = await engine.voices();
  t.true(voices.length >= 140, `${voices.length} voices`);
  const byId = new Map(voices.map((v) => [v.id, v]));
  for (const [id, language] of [
    ['de', 'de'],
    ['fr-fr', 'fr-FR'],
    ['ja', 'ja'],
    ['pt-br', 'pt-BR'],
    ['en-us', 'en-US'],
    ['en-us+klatt4', 'en-US'],
    ['en-gb+klatt4', 'en-GB'],
    ['ca-ba', 'ca-ES-x-balear'],
  ]) {
    t.is(byId.get(id as string)?.language, language, id);
  }
  t.is(byId.get('en-us+f3')?.gender, 'female');
  t.is(byId.get('en-us+klatt4')?.gender, 'male');
  t.true(voices.every((v) => v.sampleRate === 22050));
});

test('voices of several languages and scripts speak', async (t) => {
  const engine = engineOf();
  const samples: Array<[string, string]> = [
    ['de', 'Guten Morgen, wie geht es Ihnen?'],
    ['fr-fr', 'Bonjour, comment allez-vous ?'],
    ['ja', 'こんにちは、元気ですか。'],
    ['ru', 'Доброе утро, как дела?'],
    ['ar', 'صباح الخير، كيف حالك؟'],
    ['hi', 'नमस्ते, आप कैसे हैं?'],
    ['cmn', '你好，你好吗？'],
    ['en-gb+edward', 'Good morning, how are you?'],
  ];
  await Promise.all(
    samples.map(async ([voice, text]) => {
      const chunks = await collect(engine, { voice, text });
      t.true(rms(chunks) > 0.01, `${voice} is audible`);
      t.deepEqual(chunks[0]?.marker, { kind: 'sentence', index: 0, text });
    }),
  );
});

test('a request language other than the voice language switches the language, keeping the variant', async (t) => {
  const engine = engineOf();
  const text = 'Das Wetter ist heute schön.';
  const german = await collect(engine, { voice: 'en-us+klatt4', language: 'German', text });
  const byTag = await collect(engine, { voice: 'en-us+klatt4', language: 'de', text });
  t.true(rms(german) > 0.01);
  t.true(rms(byTag) > 0.01);
  const unknown = await collect(engine, { voice: 'en-us+klatt4', language: 'Martian', text: 'Hello there.' });
  t.true(rms(unknown) > 0.01, 'an unknown language keeps the voice language');
});

test('a child process that dies (SIGSEGV) fails only its request, is logged, and is replaced', async (t) => {
  const logged: Array<{ details: Record<string, unknown>; message: string }> = [];
  const engine = createEspeakEngine({
    processes: 1,
    childScript: join(__dirname, 'fixtures', 'crashing-child.js'),
    logger: { error: (details, message) => logged.push({ details, message }) },
  });
  t.teardown(() => engine.close());
  const before = await collect(engine, { text: 'First request.' });
  t.true(rms(before) > 0.01);
  const pid = engine.stats().children[0]?.pid;
  const chunks: PcmChunk[] = [];
  const error = await t.throwsAsync(async () => {
    for await (const chunk of engine.synthesize({ text: 'One sentence. CRASH-NOW here.', voice: 'en-us', speed: 1 })) {
      chunks.push(chunk);
    }
  });
  t.true(error instanceof EspeakWorkerCrashedError, String(error));
  t.regex(error?.message ?? '', /process stopped unexpectedly \(signal SIGSEGV\)/);
  t.is(chunks[0]?.marker?.index, 0, 'audio made before the crash stays delivered');
  t.is(engine.stats().crashes, 1);
  t.like(logged[0]?.details, { engine: 'espeak', pid, exit: 'signal SIGSEGV', job: 'synth' });
  const after = await collect(engine, { text: 'Still here after a crash.' });
  t.true(rms(after) > 0.01, 'the next request gets a fresh process');
  t.not(engine.stats().children[0]?.pid, pid);
  t.is(engine.stats().pending, 0);
  t.is(logged.length, 1, 'one line per death');
});

test('idle children exit (their memory goes back) and the next request starts one again', async (t) => {
  const engine = createEspeakEngine({ processes: 2, idleMs: 150 });
  t.teardown(() => engine.close());
  // Every child seen while the engine works (one may already have rested and left by the end).
  const pids = new Set<number>();
  const watch = setInterval(() => engine.stats().children.forEach((c) => pids.add(c.pid)), 5);
  await Promise.all([collect(engine, { text: 'One. Two.' }), collect(engine, { text: 'Three. Four.' })]);
  clearInterval(watch);
  t.true(pids.size >= 1);
  await waitFor(() => engine.stats().children.length === 0, { what: 'the idle children to leave the pool' });
  await waitFor(() => [...pids].every(gone), { what: 'their processes to exit' });
  t.true(rms(await collect(engine, { text: 'Back after a rest.' })) > 0.01);
  t.is(engine.stats().crashes, 0, 'an idle exit is not a crash');
});

test('the event loop keeps running while a long text is synthesized', async (t) => {
  const engine = engineOf();
  await engine.warmUp();
  const text = 'This sentence is spoken again and again to make a long text. '.repeat(40);
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 1);
  let chunks = 0;
  try {
    for await (const chunk of engine.synthesize({ text, voice: 'en-us+klatt4', speed: 1 })) chunks += chunk.marker ? 1 : 0;
  } finally {
    clearInterval(timer);
  }
  t.is(chunks, 40);
  // Synthesis in this process would hold it for whole sentences; in the children, timers keep firing.
  t.true(ticks >= 40, `${ticks} timer ticks during 40 sentences`);
});

test('warmUp starts every process; close stops them and the engine starts again on next use', async (t) => {
  const engine = createEspeakEngine({ processes: 2 });
  t.is(engine.stats().children.length, 0, 'nothing starts on construction');
  await engine.warmUp();
  const pids = engine.stats().children.map((c) => c.pid);
  t.is(pids.length, 2);
  await engine.close();
  t.is(engine.stats().children.length, 0);
  t.true(pids.every(gone), 'close() resolves once the processes have exited');
  const chunks = await collect(engine, { text: 'Back again.' });
  t.true(rms(chunks) > 0.01);
  await engine.close();
});

test('names say engine, language and variant; a request language is still found by eSpeak NG\'s own name', async (t) => {
  const raw = [
    { name: 'English (America)', identifier: 'gmw/en-US', languages: ['en-us'], gender: 1 },
    { name: 'German', identifier: 'gmw/de', languages: ['de'], gender: 1 },
  ];
  const entries = buildVoices(raw, 22050);
  const byId = new Map(entries.map((e) => [e.voice.id, e]));
  t.is(byId.get('en-us')?.voice.name, 'eSpeak English (America)');
  t.is(byId.get('en-us+klatt4')?.voice.name, 'eSpeak English (America), Klatt 4');
  t.is(byId.get('de')?.voice.name, 'eSpeak German');
  t.false(entries.some((e) => /clear/i.test(e.voice.name)), 'no name claims clarity');
  const klatt = byId.get('en-us+klatt4')!;
  t.is(voiceForLanguage(entries, klatt, 'German'), 'gmw/de+klatt4');
  t.is(voiceForLanguage(entries, klatt, 'de'), 'gmw/de+klatt4');
  t.is(voiceForLanguage(entries, byId.get('de')!, 'English (America)'), 'gmw/en-US');
  t.is(voiceForLanguage(entries, klatt, 'Martian'), undefined);
});
