/**
 * The Flite engine beyond the port's suite: its four voices really produce their listed rate, long
 * sentences are cut into pieces with one marker, odd text does not hurt a child, speed is checked, and
 * the package neither starts anything on import nor keeps its host alive when idle.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createFliteEngine, DEFAULT_FLITE_VOICE, FLITE_VOICES, splitText } from '../src';
import { forFlite } from '../src/input';
import { alive, collect, loudness, seconds, waitFor } from './helpers/pcm';

const engine = createFliteEngine({ poolSize: 2 });
test.before(() => engine.start());
test.after.always(() => engine.close());

const PACKAGE = join(__dirname, '..', 'src', 'index.js');

test('the four voices speak at the sample rate they list', async (t) => {
  const voices = await engine.voices();
  t.deepEqual(
    voices.map((voice) => voice.id),
    ['rms', 'slt', 'awb', 'kal16']
  );
  t.is(DEFAULT_FLITE_VOICE, 'rms');
  t.is(voices.find((voice) => voice.id === 'awb')?.language, 'en-GB-scotland');
  for (const voice of voices) {
    const chunks = await collect(engine.synthesize({ text: 'Good morning, and welcome.', voice: voice.id, speed: 1 }));
    t.true(chunks.length > 0, voice.id);
    for (const chunk of chunks) {
      t.is(chunk.sampleRate, voice.sampleRate, voice.id);
      t.is(chunk.channels, 1);
      t.true(chunk.samples instanceof Int16Array);
    }
    t.true(loudness(chunks) > 0.01, `${voice.id} is audible`);
    t.true(seconds(chunks) > 0.5 && seconds(chunks) < 5, `${voice.id}: ${seconds(chunks)} s`);
  }
});

test('voices() returns copies: changing one does not change the engine', async (t) => {
  const [first] = await engine.voices();
  first!.sampleRate = 1;
  t.is((await engine.voices())[0]!.sampleRate, 16_000);
  t.is(FLITE_VOICES[0]!.sampleRate, 16_000);
});

test('a sentence without full stops is cut at clause breaks, with one marker for the sentence', async (t) => {
  const clause = 'and then the applicant signs the form in the presence of a witness';
  const sentence = Array.from({ length: 12 }, (_, i) => `${clause} number ${i}`).join(', ');
  const pieces = splitText(sentence, 200);
  t.true(pieces.length > 3);
  for (const piece of pieces) t.true(piece.text.length <= 200, piece.text);
  t.is(pieces.map((piece) => piece.text).join(' '), sentence);
  t.true(pieces.every((piece) => piece.sentence === 0));
  t.deepEqual(
    pieces.map((piece) => piece.sentenceText !== undefined),
    pieces.map((_, i) => i === 0)
  );

  const long = createFliteEngine({ poolSize: 1, maxPieceChars: 200 });
  t.teardown(() => long.close());
  const chunks = await collect(long.synthesize({ text: sentence, voice: 'slt', speed: 1 }));
  t.is(chunks.length, pieces.length, 'one chunk per piece');
  t.deepEqual(
    chunks.map((chunk) => chunk.marker?.index),
    chunks.map((_, i) => (i === 0 ? 0 : undefined))
  );
});

test('a single enormous word is cut hard rather than sent whole', (t) => {
  const pieces = splitText('x'.repeat(1000), 400);
  t.deepEqual(
    pieces.map((piece) => piece.text.length),
    [400, 400, 200]
  );
});

test('text is given to Flite as ASCII punctuation without accents', (t) => {
  t.is(forFlite('Café “naïve” — it’s…  fine'), 'Cafe "naive" - it\'s... fine');
});

test('odd text (other scripts, emoji, option-like words, quotes) is spoken or skipped without harm', async (t) => {
  const texts = [
    '-voice kal -o /etc/passwd',
    'Emoji 🎉 and 日本語 and ελληνικά.',
    'She said "hello" -- then left; $100, 50% off & <b>bold</b>.',
    '\u0000 control \u0007 characters \u001b[31m here.',
    'Numbers: 3.14159, 1,000,000 and 2024-11-24.',
  ];
  for (const text of texts) {
    const chunks = await collect(engine.synthesize({ text, voice: 'rms', speed: 1 }));
    t.true(seconds(chunks) > 0.2, text);
  }
  t.is(engine.stats().crashes, 0);
});

test('speed outside 0.25-4 rejects the first next() with RangeError before any work', async (t) => {
  for (const speed of [0, -1, 5, Number.NaN, Number.POSITIVE_INFINITY]) {
    const iterator = engine.synthesize({ text: 'Hello.', voice: 'rms', speed })[Symbol.asyncIterator]();
    await t.throwsAsync(iterator.next(), { instanceOf: RangeError }, String(speed));
  }
});

test('speed stretches the audio: 0.5 is about twice as long as 1', async (t) => {
  const text = 'Please read the contract carefully before you sign it.';
  const normal = seconds(await collect(engine.synthesize({ text, voice: 'rms', speed: 1 })));
  const slow = seconds(await collect(engine.synthesize({ text, voice: 'rms', speed: 0.5 })));
  t.true(slow > normal * 1.6 && slow < normal * 2.4, `${slow} s vs ${normal} s`);
});

test('options are checked when the engine is made', (t) => {
  t.throws(() => createFliteEngine({ poolSize: 0 }), { instanceOf: RangeError });
  t.throws(() => createFliteEngine({ poolSize: 1.5 }), { instanceOf: RangeError });
  t.throws(() => createFliteEngine({ callTimeoutMs: 0 }), { instanceOf: RangeError });
  t.throws(() => createFliteEngine({ maxPieceChars: 5 }), { instanceOf: RangeError });
});

test('importing the package and making an engine starts no process', (t) => {
  const script = `
    const { createFliteEngine } = require(${JSON.stringify(PACKAGE)});
    createFliteEngine();
    console.log(JSON.stringify(process.getActiveResourcesInfo()));
  `;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 60_000 });
  t.is(result.status, 0, result.stderr);
  const resources: string[] = JSON.parse(result.stdout);
  t.false(
    resources.some((name) => /Process|Pipe/.test(name)),
    resources.join(', ')
  );
});

test('an engine left open and idle does not keep its host alive, and its children leave with it', async (t) => {
  const script = `
    const { createFliteEngine } = require(${JSON.stringify(PACKAGE)});
    (async () => {
      const engine = createFliteEngine({ poolSize: 2 });
      for await (const chunk of engine.synthesize({ text: 'Hello.', voice: 'rms', speed: 1 })) {}
      console.log(JSON.stringify(engine.stats().children.map((child) => child.pid)));
    })();
  `;
  // Its own temporary directory, to see that the children's work directories go with them.
  const tmp = mkdtempSync(join(tmpdir(), 'flite-host-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  const result = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, TMPDIR: tmp },
  });
  t.is(result.status, 0, result.stderr);
  const pids: number[] = JSON.parse(result.stdout);
  t.is(pids.length, 2);
  await waitFor(() => !pids.some(alive));
  t.false(pids.some(alive));
  t.deepEqual(readdirSync(tmp), [], 'no work directory is left behind');
});
