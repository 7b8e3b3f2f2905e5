import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { splitSentences, UnknownVoiceError } from '@formloom/core';
import type { EngineVoice, PcmChunk, SpeechEngine, SynthesisRequest } from '@formloom/core';
import type { EngineLogger, FromChild } from './messages';
import { type ChildInfo, type Job, ProcessPool } from './pool';
import { buildVoices, espeakName, voiceForLanguage, type VoiceEntry } from './voices';

export interface EspeakEngineOptions {
  /** Child processes (each synthesizes one sentence at a time). Default: 2, or 1 on a single core. */
  processes?: number;
  /** A child idle this long exits, giving its memory (~60 MB) back; the next request starts one. Default 30,000. */
  idleMs?: number;
  /** About how much audio each chunk holds, in milliseconds. Default 1000. */
  chunkMs?: number;
  /** Where a child's death is reported (a pino logger fits): one `error` line each. */
  logger?: EngineLogger;
  /** The child script; default this package's own. For tests and custom builds. */
  childScript?: string;
  /** Hooks for tests; not for production use. */
  testing?: EspeakTestingOptions;
}

export interface EspeakTestingOptions {
  /**
   * Milliseconds the child blocks before synthesizing a sentence (a stuck engine), so a test can find the
   * busy child in `stats().children` and kill it mid-request.
   */
  stallMs?(sentence: { index: number; text: string }): number;
}

/** What {@link EspeakEngine.stats} reports. */
export interface EspeakStats {
  /** The running child processes (pid and whether one is synthesizing). */
  children: ChildInfo[];
  /** Sentences being synthesized or waiting for a child. */
  pending: number;
  /** Children that died unexpectedly (not those ended when idle or by `close()`). */
  crashes: number;
}

/** eSpeak NG's default speaking rate in words per minute: speed 1. */
export const ESPEAK_DEFAULT_RATE = 175;
/** Rates eSpeak NG accepts. */
const MIN_RATE = 80;
const MAX_RATE = 450;

interface VoiceTable {
  entries: VoiceEntry[];
  byId: Map<string, VoiceEntry>;
  sampleRate: number;
}

/**
 * eSpeak NG as a {@link SpeechEngine}: every language and voice of its voice data (about 140), plus clearer
 * Klatt variants for English. Nothing starts on construction; the first `voices()` or `synthesize()`
 * starts a child process (loading eSpeak NG's WebAssembly and 24 MB of voice data takes about a second).
 * Children exit after `idleMs` without work. Call {@link warmUp} to pay the start up front, and
 * {@link close} at shutdown.
 */
export class EspeakEngine implements SpeechEngine {
  readonly id = 'espeak';
  private readonly pool: ProcessPool;
  private readonly chunkMs: number;
  private readonly testing?: EspeakTestingOptions;
  private table: Promise<VoiceTable> | undefined;

  constructor(options: EspeakEngineOptions = {}) {
    const processes = options.processes ?? Math.min(2, availableParallelism());
    if (!Number.isInteger(processes) || processes < 1) throw new RangeError(`processes must be a positive integer`);
    const idleMs = options.idleMs ?? 30_000;
    if (!(idleMs > 0)) throw new RangeError(`idleMs must be positive`);
    this.chunkMs = options.chunkMs ?? 1000;
    this.testing = options.testing;
    this.pool = new ProcessPool({
      size: processes,
      childScript: options.childScript ?? join(__dirname, 'child.js'),
      idleMs,
      logger: options.logger,
    });
  }

  /** Starts every child process, loads eSpeak NG in each and speaks a word, so the next request is fast. */
  async warmUp(): Promise<void> {
    const table = await this.voiceTable();
    this.pool.fill();
    const voice = table.entries.find((e) => e.voice.id === 'en-us+klatt4') ?? table.entries[0];
    if (!voice) return;
    const jobs = Array.from({ length: this.pool.stats().children.length }, () =>
      this.pool.run({ type: 'synth', voice: espeakName(voice), rate: ESPEAK_DEFAULT_RATE, text: 'Ready.', chunkSamples: 1 << 20 }),
    );
    await Promise.all(jobs.map((job) => job.finished));
  }

  /** The child processes, the sentences running or queued, and how many children died unexpectedly. */
  stats(): EspeakStats {
    return this.pool.stats();
  }

  /** Stops the child processes; requests in flight fail. The engine starts again on its next use. */
  async close(): Promise<void> {
    this.table = undefined;
    await this.pool.close();
  }

  async voices(): Promise<EngineVoice[]> {
    return (await this.voiceTable()).entries.map((e) => ({ ...e.voice }));
  }

  async *synthesize(request: SynthesisRequest): AsyncGenerator<PcmChunk> {
    const { signal } = request;
    const table = await this.voiceTable();
    const entry = table.byId.get(request.voice);
    if (!entry) throw new UnknownVoiceError(this.id, request.voice);
    signal?.throwIfAborted();
    const voice = (request.language && voiceForLanguage(table.entries, entry, request.language)) || espeakName(entry);
    const rate = Math.min(MAX_RATE, Math.max(MIN_RATE, Math.round(ESPEAK_DEFAULT_RATE * request.speed)));
    const sentences = splitSentences(request.text, request.language ?? entry.voice.language);
    const chunkSamples = Math.max(1, Math.round((table.sampleRate * this.chunkMs) / 1000));
    const jobs: Job[] = [];
    let stopped = false;
    const launch = (index: number) => {
      const sentence = sentences[index];
      if (stopped || !sentence || jobs[index]) return;
      const stallMs = this.testing?.stallMs?.({ index: sentence.index, text: sentence.text });
      jobs[index] = this.pool.run({ type: 'synth', voice, rate, text: sentence.text, chunkSamples, ...(stallMs ? { stallMs } : {}) });
    };
    try {
      for (const [index, sentence] of sentences.entries()) {
        launch(index);
        const job = jobs[index] as Job;
        // Read ahead one sentence once this one is made, so the next is ready when the consumer wants it
        // without one request holding two processes.
        job.finished.then(() => launch(index + 1), () => undefined);
        let first = true;
        for await (const samples of job.samples(signal)) {
          const chunk: PcmChunk = { samples, sampleRate: table.sampleRate, channels: 1 };
          if (first) chunk.marker = { kind: 'sentence', index: sentence.index, text: sentence.text };
          first = false;
          yield chunk;
          signal?.throwIfAborted();
        }
      }
    } finally {
      stopped = true; // a read-ahead settling later must not start work for a request that has ended
      for (const job of jobs) if (job) this.pool.cancel(job);
    }
  }

  private voiceTable(): Promise<VoiceTable> {
    if (!this.table) {
      const loading = this.pool.run({ type: 'voices' }).finished.then((message: FromChild) => {
        if (message.type !== 'voices') throw new Error(`unexpected answer ${message.type} to a voice listing`);
        const entries = buildVoices(message.voices, message.sampleRate);
        return { entries, byId: new Map(entries.map((e) => [e.voice.id, e])), sampleRate: message.sampleRate };
      });
      // A failed start (a child that died while loading) is retried on the next call.
      loading.catch(() => {
        if (this.table === loading) this.table = undefined;
      });
      this.table = loading;
    }
    return this.table;
  }
}

/** Creates an eSpeak NG engine; nothing starts until its first use or {@link EspeakEngine.warmUp}. */
export function createEspeakEngine(options?: EspeakEngineOptions): EspeakEngine {
  return new EspeakEngine(options);
}
