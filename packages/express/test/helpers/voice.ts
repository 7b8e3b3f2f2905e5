import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestFn } from 'ava';
import { createAudioCodecs, type AudioCodecs } from '@formloom/audio';
import { EngineWarmingUpError, splitSentences, UnknownVoiceError, type PcmChunk, type SpeechEngine } from '@formloom/core';
import { createEspeakEngine, type EspeakEngine } from '@formloom/speech-espeak';
import { forEachDb, type TestApp, type TestAppOptions } from './app';
import type { SharedDb } from './shared-apps';

let shared: { espeak: EspeakEngine; audio: AudioCodecs } | undefined;

/**
 * The test process's eSpeak engine and audio codecs, shared by every app and part that speaks with eSpeak:
 * an eSpeak process loads 24 MB of voice data (about a CPU-second; a part's own engine paid it again, and
 * again after each 30 s idle), and the codecs are made to be one per process (docs/voice.md), each keeping
 * a prepared MP3 encoder (a LAME worker thread, ~0.2 CPU-seconds) ready. One process: the tests need no
 * parallel synthesis. Its idle child does not keep the test process alive; the entry that uses it closes it
 * (`closeSharedVoiceEngines`), so that the child's CPU is counted with the file's.
 */
export function sharedVoiceEngines(): { espeak: EspeakEngine; audio: AudioCodecs } {
  return (shared ??= { espeak: createEspeakEngine({ processes: 1, idleMs: 600_000 }), audio: createAudioCodecs() });
}

/** Stops the shared eSpeak process (a later use starts it again). */
export async function closeSharedVoiceEngines(): Promise<void> {
  await shared?.espeak.close();
}

/**
 * eSpeak NG (every language, fast; the process's shared engine and codecs, `sharedVoiceEngines`) plus an
 * engine whose voices fail: `dead` before any audio, `broken` after its first sentence, `warming` before any
 * audio with `EngineWarmingUpError` (retry after 7 s).
 */
export function voiceAppOptions(voice: Record<string, unknown> = {}): TestAppOptions {
  const { espeak, audio } = sharedVoiceEngines();
  return {
    speechEngines: [espeak, failingEngine()],
    audio,
    // Tests that expect a 200 assert the outcome, not that a busy machine made the audio within the default
    // 25 s budget: the budget is out of their way (voice/rendering.ts tests the budget itself).
    config: { voice: { syncBudgetMs: 600_000, ...voice } },
  };
}

/**
 * `voiceAppOptions` with a light engine in eSpeak's place: for tests of what the voice service does around
 * the audio (credits, retakes, reuse, idempotency), where which words the audio says does not matter. It
 * spares each such file two eSpeak processes (one per database) loading 24 MB of voice data and
 * synthesizing every request; the real engines keep their own conformance tests (voice-conformance and
 * the engines' packages). Its voices: `voiceIdOf('tone', 'en-us')` and `voiceIdOf('tone', 'en-gb')`.
 */
export function toneVoiceAppOptions(voice: Record<string, unknown> = {}): TestAppOptions {
  return { ...voiceAppOptions(voice), speechEngines: [toneEngine(), failingEngine()] };
}

/**
 * A speech engine at the port's boundary that speaks each sentence (split as the real engines split them)
 * as a tone about as long as eSpeak would take to say it, 60 ms a character at normal speed, at eSpeak's
 * 22,050 Hz, with a marker on each sentence's first chunk. It checks its voice and stops when aborted.
 */
export function toneEngine(): SpeechEngine {
  const voices = [
    { id: 'en-us', name: 'Tone English (America)', language: 'en-US', gender: 'neutral' as const, sampleRate: 22050 },
    { id: 'en-gb', name: 'Tone English (Great Britain)', language: 'en-GB', gender: 'neutral' as const, sampleRate: 22050 },
  ];
  return {
    id: 'tone',
    voices: async () => voices,
    synthesize: (request) => ({
      async *[Symbol.asyncIterator](): AsyncGenerator<PcmChunk> {
        const voice = voices.find((v) => v.id === request.voice);
        if (!voice) throw new UnknownVoiceError('tone', request.voice);
        for (const sentence of splitSentences(request.text, request.language ?? voice.language)) {
          request.signal?.throwIfAborted();
          const samples = new Int16Array(Math.round((voice.sampleRate * 0.06 * [...sentence.text].length) / request.speed));
          for (let i = 0; i < samples.length; i++) samples[i] = Math.round(6000 * Math.sin((2 * Math.PI * 220 * i) / voice.sampleRate));
          yield { samples, sampleRate: voice.sampleRate, channels: 1, marker: { kind: 'sentence', index: sentence.index, text: sentence.text } };
        }
      },
    }),
  };
}

/**
 * One app per database for the parts of voice.test.ts that need nothing of their own (no clock, limits,
 * worker or engine of their own): eSpeak, the tone engine and the failing voices, with sign-in sessions.
 * Each part exports `register` (as helpers/shared-apps.ts's parts do) and works under users of its own;
 * the apps cost about 0.2 CPU-seconds each, two per part before (docs/testing.md, "Merged test files").
 */
export function sharedVoiceApps(test: TestFn, parts: Array<{ register(db: SharedDb): void }>): void {
  const options: TestAppOptions = { ...voiceAppOptions(), speechEngines: [sharedVoiceEngines().espeak, toneEngine(), failingEngine()], sessions: { signup: 'open' } };
  forEachDb(test, (it) => {
    for (const part of parts) part.register((register) => register(it));
  }, options);
}

/** The `failing` engine's voices (see `voiceAppOptions`), for a part that picks its own engines. */
export function failingEngine(): SpeechEngine {
  return {
    id: 'failing',
    voices: async () => [
      { id: 'broken', name: 'Broken', language: 'en-US', gender: 'neutral', sampleRate: 16000 },
      { id: 'dead', name: 'Dead', language: 'en-US', gender: 'neutral', sampleRate: 16000 },
      { id: 'warming', name: 'Warming', language: 'en-US', gender: 'neutral', sampleRate: 16000 },
    ],
    synthesize: (request) => ({
      async *[Symbol.asyncIterator](): AsyncGenerator<PcmChunk> {
        if (request.voice === 'dead') throw new Error('engine did not start');
        if (request.voice === 'warming') throw new EngineWarmingUpError('failing', 7);
        yield { samples: new Int16Array(1600), sampleRate: 16000, channels: 1, marker: { kind: 'sentence', index: 0 } };
        throw new Error('engine crashed');
      },
    }),
  };
}

export interface VoiceUser {
  id: string;
  key: string;
  keyId: string;
}

/** A verified user with `credits` bought through the payments port and a voice key. */
export async function voiceUser(app: TestApp, opts: { credits?: number; verified?: boolean; monthlyLimit?: number; plan?: string } = {}): Promise<VoiceUser> {
  const email = `voice_${process.pid}_${Date.now()}_${Math.random().toString(36).slice(2)}@example.com`;
  const user = await app.formloom.accounts.createUser({ email, verified: opts.verified ?? true, plan: opts.plan });
  if (opts.credits) await app.formloom.accounts.purchaseCredits(user.id, opts.credits);
  const key = await app.formloom.accounts.createKey(user.id, { scope: 'voice', monthly_limit: opts.monthlyLimit ?? null });
  return { id: user.id, key: key.api_key, keyId: key.key_id };
}

/** Fetches bytes with the key (for `audio.url`, relative to the server). */
export async function download(app: TestApp, path: string, key: string) {
  const res = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${key}`, connection: 'close' } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()), headers: res.headers };
}

/** What ffprobe reads in `bytes`: codec, sample rate, duration. `rawFormat` for headerless audio (`mulaw`, `s16le`). */
export async function probe(bytes: Uint8Array, rawFormat?: { format: string; rate: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'voice-probe-'));
  try {
    const file = join(dir, 'audio');
    writeFileSync(file, bytes);
    const raw = rawFormat ? ['-f', rawFormat.format, '-ar', String(rawFormat.rate), '-ac', '1'] : [];
    const { stdout: out } = await promisify(execFile)('ffprobe', ['-v', 'error', ...raw, '-show_entries', 'stream=codec_name,sample_rate:format=duration', '-of', 'json', file]);
    const json = JSON.parse(out.toString());
    return { codec: json.streams[0].codec_name as string, sampleRate: Number(json.streams[0].sample_rate), duration: Number(json.format.duration) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An engine whose `gated` voice makes its audio only when the test opens the gate (`open()`), or fails
 * then (`fail()`): a generation that is not ready in time, without timing the test. Its `quick` voice answers at once.
 */
export function gatedEngine() {
  let release!: (ok: boolean) => void;
  let gate = new Promise<boolean>((resolve) => (release = resolve));
  let entered!: () => void;
  let waiting = new Promise<void>((resolve) => (entered = resolve));
  const tone = (seconds: number): PcmChunk => {
    const samples = new Int16Array(16000 * seconds);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / 16000));
    return { samples, sampleRate: 16000, channels: 1, marker: { kind: 'sentence', index: 0 } };
  };
  const engine: SpeechEngine = {
    id: 'gated',
    voices: async () => [
      { id: 'gated', name: 'Gated', language: 'en-US', gender: 'neutral', sampleRate: 16000 },
      { id: 'quick', name: 'Quick', language: 'en-US', gender: 'neutral', sampleRate: 16000 },
    ],
    synthesize: (request) => ({
      async *[Symbol.asyncIterator](): AsyncGenerator<PcmChunk> {
        if (request.voice === 'gated') {
          entered();
          if (!(await gate)) throw new Error('engine failed after the gate');
        }
        yield tone(1);
      },
    }),
  };
  return {
    engine,
    /** Resolves once a request waits at the gate. */
    reached: () => waiting,
    open: () => release(true),
    fail: () => release(false),
    /** A new closed gate for the next request. */
    reset() {
      gate = new Promise<boolean>((resolve) => (release = resolve));
      waiting = new Promise<void>((resolve) => (entered = resolve));
    },
  };
}
