import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { ResourceLimits } from 'node:worker_threads';
import { splitSentences, UnknownVoiceError } from '@formloom/core';
import type { EngineVoice, PcmChunk, SpeechEngine, SynthesisRequest } from '@formloom/core';
import { WorkerPool, type FromWorker, type Job } from './pool';
import { buildVoices, espeakName, voiceForLanguage, type VoiceEntry } from './voices';

export interface EspeakEngineOptions {
  /** Worker threads (each synthesizes one sentence at a time). Default: 2, or 1 on a single core. */
  threads?: number;
  /** About how much audio each chunk holds, in milliseconds. Default 1000. */
  chunkMs?: number;
  /** Limits for each worker thread (a worker that exceeds them dies and is replaced). */
  resourceLimits?: ResourceLimits;
  /** The worker script; default this package's own. For tests and custom builds. */
  workerPath?: string;
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
 * starts a worker thread (loading eSpeak NG's WebAssembly and 24 MB of voice data takes about a second).
 * Call {@link warmUp} at server start to pay that up front, and {@link close} at shutdown.
 */
export class EspeakEngine implements SpeechEngine {
  readonly id = 'espeak';
  private readonly pool: WorkerPool;
  private readonly chunkMs: number;
  private table: Promise<VoiceTable> | undefined;

  constructor(options: EspeakEngineOptions = {}) {
    const threads = options.threads ?? Math.min(2, availableParallelism());
    if (!Number.isInteger(threads) || threads < 1) throw new RangeError(`threads must be a positive integer`);
    this.chunkMs = options.chunkMs ?? 1000;
    this.pool = new WorkerPool({
      size: threads,
      workerPath: options.workerPath ?? join(__dirname, 'worker.js'),
      resourceLimits: options.resourceLimits,
    });
  }

  /** Starts every worker thread, loads eSpeak NG in each and speaks a word, so the first request is fast. */
  async warmUp(): Promise<void> {
    const table = await this.voiceTable();
    this.pool.fill();
    const voice = table.entries.find((e) => e.voice.id === 'en-us+klatt4') ?? table.entries[0];
    if (!voice) return;
    const jobs = Array.from({ length: this.pool.threads }, () =>
      this.pool.run({ type: 'synth', voice: espeakName(voice), rate: ESPEAK_DEFAULT_RATE, text: 'Ready.', chunkSamples: 1 << 20 }),
    );
    await Promise.all(jobs.map((job) => job.finished));
  }

  /** Work running or queued: sentences being synthesized or waiting for a worker thread. */
  stats(): { threads: number; pending: number } {
    return { threads: this.pool.threads, pending: this.pool.pending };
  }

  /** Stops the worker threads; requests in flight fail. The engine starts again on its next use. */
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
      jobs[index] = this.pool.run({ type: 'synth', voice, rate, text: sentence.text, chunkSamples });
    };
    try {
      for (const [index, sentence] of sentences.entries()) {
        launch(index);
        const job = jobs[index] as Job;
        // Read ahead one sentence once this one is made, so the next is ready when the consumer wants it
        // without one request holding two threads.
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
      const loading = this.pool.run({ type: 'voices' }).finished.then((message: FromWorker) => {
        if (message.type !== 'voices') throw new Error(`unexpected answer ${message.type} to a voice listing`);
        const entries = buildVoices(message.voices, message.sampleRate);
        return { entries, byId: new Map(entries.map((e) => [e.voice.id, e])), sampleRate: message.sampleRate };
      });
      // A failed start (a worker that died while loading) is retried on the next call.
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
