import type { ExecutionContext, TestFn } from 'ava';
import { UnknownVoiceError } from '../ports/speech-engine';
import type { EngineVoice, PcmChunk, PcmMarker, SpeechEngine, SynthesisRequest } from '../ports/speech-engine';

export interface SpeechEngineHarnessInstance {
  engine: SpeechEngine;
  /**
   * Work the engine still holds (busy workers, open HTTP requests). When given, the suite checks it falls
   * back to 0 after an abort or an early `return()`, so nothing leaks.
   */
  pending?(): number | Promise<number>;
  close(): Promise<void>;
}

export interface SpeechEngineHarness {
  /** Prefix of every test title. */
  name: string;
  create(): Promise<SpeechEngineHarnessInstance>;
  /** The voice the tests speak with; default the first voice whose language is English, else the first. */
  voice?: string;
  /** Three sentences in that voice's language, each long enough to be heard; default English ones. */
  sentences?: [string, string, string];
  /**
   * Whether the same request always gives the same samples (default true). When false, concurrent results
   * are compared by markers and by length within 10%.
   */
  deterministic?: boolean;
}

const ENGLISH: [string, string, string] = [
  'The quick brown fox jumps over the lazy dog.',
  'Please read the contract carefully before you sign it.',
  'Thank you for filling in our survey today!',
];

type EngineTest = (
  title: string,
  body: (t: ExecutionContext, ctx: { instance: SpeechEngineHarnessInstance; voice: EngineVoice }) => Promise<void>,
) => void;

/**
 * Registers the SpeechEngine port's conformance tests on `test` (ava). The harness is created once per test
 * file. Tests that check for leaks run serially (before the concurrent ones), so `pending()` sees only
 * their own work.
 */
export function runSpeechEngineConformance(test: TestFn<any>, harness: SpeechEngineHarness): void {
  const sentences = harness.sentences ?? ENGLISH;
  let state: { instance: SpeechEngineHarnessInstance; voice: EngineVoice } | undefined;
  test.before(async () => {
    const instance = await harness.create();
    const voices = await instance.engine.voices();
    const voice = harness.voice
      ? voices.find((v) => v.id === harness.voice)
      : (voices.find((v) => /^en\b/i.test(v.language)) ?? voices[0]);
    if (!voice) throw new Error(`${harness.name}: voice ${harness.voice ?? '(any)'} is not listed`);
    state = { instance, voice };
  });
  test.after.always(async () => {
    await state?.instance.close();
  });
  const register =
    (serial: boolean): EngineTest =>
    (title, body) =>
      (serial ? test.serial : test)(`${harness.name}: ${title}`, async (t) => {
        if (!state) throw new Error(`The ${harness.name} speech-engine harness was not created`);
        await body(t, state);
      });
  const engineTest = register(false);
  const serialTest = register(true);
  const request = (voice: EngineVoice, text: string, extra: Partial<SynthesisRequest> = {}): SynthesisRequest => ({
    text,
    voice: voice.id,
    speed: 1,
    ...extra,
  });

  engineTest('voices() lists voices with BCP 47 languages, names and sample rates', async (t, { instance }) => {
    const voices = await instance.engine.voices();
    t.true(voices.length > 0);
    t.is(new Set(voices.map((v) => v.id)).size, voices.length, 'ids are unique');
    for (const v of voices) {
      t.true(typeof v.id === 'string' && v.id.length > 0, `id of ${JSON.stringify(v)}`);
      t.true(typeof v.name === 'string' && v.name.trim().length > 0, `name of ${v.id}`);
      t.notThrows(() => Intl.getCanonicalLocales(v.language), `language ${v.language} of ${v.id}`);
      t.true(Number.isInteger(v.sampleRate) && v.sampleRate >= 8000 && v.sampleRate <= 48000, `rate of ${v.id}`);
      if (v.gender !== undefined) t.true(['female', 'male', 'neutral'].includes(v.gender), `gender of ${v.id}`);
    }
  });

  engineTest('voice ids are stable across calls', async (t, { instance }) => {
    const first = await instance.engine.voices();
    const second = await instance.engine.voices();
    t.deepEqual(
      second.map((v) => [v.id, v.language, v.sampleRate]),
      first.map((v) => [v.id, v.language, v.sampleRate]),
    );
  });

  engineTest('a sentence yields audible PCM at the voice rate', async (t, { instance, voice }) => {
    const chunks = await collect(instance.engine.synthesize(request(voice, sentences[0])));
    t.true(chunks.length > 0);
    assertChunks(t, chunks, voice);
    t.true(rms(chunks) > 0.01, `rms ${rms(chunks)}`);
    // A spoken sentence lasts between a fraction of a second and half a minute.
    const seconds = duration(chunks);
    t.true(seconds > 0.5 && seconds < 30, `${seconds} s`);
  });

  engineTest('the first chunk of each sentence carries a sentence marker', async (t, { instance, voice }) => {
    const chunks = await collect(instance.engine.synthesize(request(voice, sentences.join(' '))));
    assertChunks(t, chunks, voice);
    t.truthy(chunks[0]?.marker, 'the first chunk has a marker');
    const markers = chunks.map((c) => c.marker).filter((m): m is PcmMarker => m !== undefined);
    t.deepEqual(
      markers.map((m) => [m.kind, m.index]),
      [
        ['sentence', 0],
        ['sentence', 1],
        ['sentence', 2],
      ],
    );
    markers.forEach((m, i) => {
      if (m.text !== undefined) t.is(m.text.trim(), sentences[i]);
    });
  });

  engineTest('more sentences give longer audio', async (t, { instance, voice }) => {
    const one = await collect(instance.engine.synthesize(request(voice, sentences[0])));
    const three = await collect(instance.engine.synthesize(request(voice, sentences.join(' '))));
    t.true(duration(three) > duration(one) * 1.5, `${duration(three)} s vs ${duration(one)} s`);
  });

  engineTest('speed 1.15 is shorter than 0.85 for the same text', async (t, { instance, voice }) => {
    const text = sentences.join(' ');
    const fast = await collect(instance.engine.synthesize(request(voice, text, { speed: 1.15 })));
    const slow = await collect(instance.engine.synthesize(request(voice, text, { speed: 0.85 })));
    assertChunks(t, fast, voice);
    t.true(duration(fast) < duration(slow), `${duration(fast)} s at 1.15 vs ${duration(slow)} s at 0.85`);
  });

  engineTest('an unknown voice rejects the first next() with UnknownVoiceError', async (t, { instance }) => {
    const iterator = instance.engine
      .synthesize({ text: sentences[0], voice: 'no-such-voice-4242', speed: 1 })
      [Symbol.asyncIterator]();
    const error = await t.throwsAsync(iterator.next());
    t.true(error instanceof UnknownVoiceError || error?.name === 'UnknownVoiceError', String(error));
  });

  engineTest('empty, blank and punctuation-only text give no or silent chunks', async (t, { instance, voice }) => {
    for (const text of ['', '   \n\t ', '...', '?!', ' . , ; ']) {
      const chunks = await collect(instance.engine.synthesize(request(voice, text)));
      assertChunks(t, chunks, voice);
      t.true(rms(chunks) < 0.01, `text ${JSON.stringify(text)} gave rms ${rms(chunks)}`);
    }
  });

  engineTest('concurrent calls do not mix audio', async (t, { instance, voice }) => {
    const texts = [sentences[0], `${sentences[1]} ${sentences[2]}`, sentences.join(' '), sentences[2]];
    const together = await Promise.all(texts.map((text) => collect(instance.engine.synthesize(request(voice, text)))));
    for (const [i, text] of texts.entries()) {
      const alone = await collect(instance.engine.synthesize(request(voice, text)));
      const mixed = together[i] ?? [];
      assertChunks(t, mixed, voice);
      t.deepEqual(markerList(mixed), markerList(alone), `markers of text ${i}`);
      if (harness.deterministic !== false) {
        t.is(sampleCount(mixed), sampleCount(alone), `length of text ${i}`);
        t.true(sameSamples(mixed, alone), `samples of text ${i}`);
      } else {
        // Engines with random jitter (eSpeak NG's pitch flutter) vary by a few samples, never by a sentence.
        const ratio = sampleCount(mixed) / sampleCount(alone);
        t.true(ratio > 0.9 && ratio < 1.1, `length of text ${i}: ${sampleCount(mixed)} vs ${sampleCount(alone)}`);
      }
    }
  });

  serialTest('aborting the signal rejects next() with its reason and frees the work', async (t, ctx) => {
    const { instance, voice } = ctx;
    const controller = new AbortController();
    const reason = new Error('client went away');
    const iterator = instance.engine
      .synthesize(request(voice, longText(sentences), { signal: controller.signal }))
      [Symbol.asyncIterator]();
    const first = await iterator.next();
    t.false(first.done);
    controller.abort(reason);
    // The port: the next next() after an abort rejects with the reason, even if a chunk was already made.
    const error = await t.throwsAsync(iterator.next());
    t.is(error, reason);
    const after = await iterator.next().catch(() => ({ done: true }));
    t.true(after.done, 'no chunk after the abort');
    await assertIdle(t, instance);
    await assertStillWorks(t, instance, voice, sentences[0]);
  });

  serialTest('an already aborted signal rejects the first next()', async (t, { instance, voice }) => {
    const reason = new Error('aborted before start');
    const iterator = instance.engine
      .synthesize(request(voice, sentences[0], { signal: AbortSignal.abort(reason) }))
      [Symbol.asyncIterator]();
    const error = await t.throwsAsync(iterator.next());
    t.is(error, reason);
    await assertIdle(t, instance);
  });

  serialTest('return() on the iterator (break) stops the work', async (t, { instance, voice }) => {
    let seen = 0;
    for await (const chunk of instance.engine.synthesize(request(voice, longText(sentences)))) {
      t.true(chunk.samples.length >= 0);
      seen += 1;
      if (seen === 2) break;
    }
    t.is(seen, 2);
    await assertIdle(t, instance);
    await assertStillWorks(t, instance, voice, sentences[1]);
  });

  serialTest('5,000 characters stream their first chunk before the whole text is made', async (t, ctx) => {
    const { instance, voice } = ctx;
    await collect(instance.engine.synthesize(request(voice, sentences[0]))); // warm, so start-up is not measured
    const text = longText(sentences);
    t.true(text.length >= 5000);
    const started = performance.now();
    let firstAt = 0;
    const chunks: PcmChunk[] = [];
    for await (const chunk of instance.engine.synthesize(request(voice, text))) {
      if (chunks.length === 0) firstAt = performance.now();
      chunks.push(chunk);
    }
    const total = performance.now() - started;
    assertChunks(t, chunks, voice);
    t.true(markerList(chunks).length > 30, 'one marker per sentence');
    // Relative, not a time budget: a streaming engine hands over sentence 1 of ~70 long before the end.
    t.true(firstAt - started < total / 2, `first chunk after ${firstAt - started} ms of ${total} ms`);
  });

  async function assertIdle(t: ExecutionContext, instance: SpeechEngineHarnessInstance): Promise<void> {
    if (!instance.pending) return;
    const deadline = Date.now() + 10_000;
    let pending = await instance.pending();
    while (pending > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      pending = await instance.pending();
    }
    t.is(pending, 0, 'the engine holds no work after the request ended');
  }
}

async function assertStillWorks(
  t: ExecutionContext,
  instance: SpeechEngineHarnessInstance,
  voice: EngineVoice,
  text: string,
): Promise<void> {
  const chunks = await collect(instance.engine.synthesize({ text, voice: voice.id, speed: 1 }));
  t.true(rms(chunks) > 0.01, 'the engine still speaks afterwards');
}

/** At least 5,000 characters, made of the three sentences numbered so that no two sentences are equal. */
function longText(sentences: readonly string[]): string {
  const parts: string[] = [];
  let length = -1;
  for (let i = 0; length < 5000; i++) {
    const sentence = sentences[i % sentences.length] ?? '';
    const part = i < sentences.length ? sentence : sentence.replace(/^(\S+)/, `$1 ${i}`);
    parts.push(part);
    length += part.length + 1;
  }
  return parts.join(' ');
}

async function collect(source: AsyncIterable<PcmChunk>): Promise<PcmChunk[]> {
  const chunks: PcmChunk[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return chunks;
}

function assertChunks(t: ExecutionContext, chunks: PcmChunk[], voice: EngineVoice): void {
  for (const chunk of chunks) {
    t.true(chunk.samples instanceof Int16Array || chunk.samples instanceof Float32Array, 'sample type');
    t.is(chunk.sampleRate, voice.sampleRate, 'the declared sample rate');
    t.is(chunk.channels, chunks[0]?.channels, 'one channel count per call');
    t.true(chunk.channels === 1 || chunk.channels === 2, 'mono or stereo');
    t.is(chunk.samples.length % chunk.channels, 0, 'whole frames');
  }
}

function sampleCount(chunks: PcmChunk[]): number {
  return chunks.reduce((sum, c) => sum + c.samples.length / c.channels, 0);
}

function duration(chunks: PcmChunk[]): number {
  return chunks.reduce((sum, c) => sum + c.samples.length / c.channels / c.sampleRate, 0);
}

/** Root mean square on a [-1, 1] scale. */
function rms(chunks: PcmChunk[]): number {
  let sum = 0;
  let count = 0;
  for (const chunk of chunks) {
    const scale = chunk.samples instanceof Int16Array ? 1 / 32768 : 1;
    for (const sample of chunk.samples) sum += (sample * scale) ** 2;
    count += chunk.samples.length;
  }
  return count === 0 ? 0 : Math.sqrt(sum / count);
}

function markerList(chunks: PcmChunk[]): unknown[][] {
  return chunks.flatMap((c) => (c.marker ? [[c.marker.kind, c.marker.index, c.marker.text]] : []));
}

function sameSamples(a: PcmChunk[], b: PcmChunk[]): boolean {
  const flat = (chunks: PcmChunk[]) => chunks.flatMap((c) => Array.from(c.samples));
  const x = flat(a);
  const y = flat(b);
  return x.length === y.length && x.every((value, i) => value === y[i]);
}
