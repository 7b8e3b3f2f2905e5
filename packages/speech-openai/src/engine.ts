import { splitSentences, UnknownVoiceError } from '@formloom/core';
import type { EngineVoice, PcmChunk, SpeechEngine, SynthesisRequest } from '@formloom/core';
import { badResponseError, errorFromResponse, timeoutError, unreachableError } from './errors';

export interface OpenAiVoice {
  /** The server's voice name, sent as `voice` (for example `af_heart` on Kokoro, `alloy` on OpenAI). */
  id: string;
  name: string;
  /** BCP 47 tag of the language the voice speaks. */
  language: string;
  gender?: 'female' | 'male' | 'neutral';
}

export interface OpenAiSpeechOptions {
  /** The API root, with its `/v1`: `http://127.0.0.1:8880/v1` (Kokoro-FastAPI), `https://api.openai.com/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <apiKey>` when given. */
  apiKey?: string;
  /** Sent as `model`, for example `kokoro`, `tts-1`, `piper`. */
  model: string;
  /** The voices the server has; the server lists none in a standard way, so the host names them. */
  voices: OpenAiVoice[];
  /**
   * How long to wait for the server: for each sentence's answer to start, then for each piece of its body
   * (time the consumer spends on audio already received does not count). Default 30,000 ms.
   */
  timeoutMs?: number;
  /** The rate of the server's `pcm` answers. OpenAI documents 24,000 Hz; so do Kokoro-FastAPI and openedai-speech. */
  sampleRate?: number;
  /** Engine id (part of every voice's identity); default `openai`. Give each configured server its own. */
  id?: string;
}

/** At least this much audio per chunk (except a sentence's last), so tiny network reads are not passed on. */
const MIN_CHUNK_MS = 100;

/**
 * A {@link SpeechEngine} over any OpenAI-compatible `POST /v1/audio/speech` server. Each sentence is one
 * request with `response_format: "pcm"` (raw 16-bit little-endian mono), streamed as it arrives, so the first
 * audio comes after one sentence's worth of server time. Holds no connection or state between calls.
 */
export class OpenAiSpeechEngine implements SpeechEngine {
  readonly id: string;
  private readonly url: string;
  private readonly timeoutMs: number;
  private readonly sampleRate: number;
  private readonly voiceList: EngineVoice[];

  constructor(private readonly options: OpenAiSpeechOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new RangeError('baseUrl must be http(s)');
    this.url = `${options.baseUrl.replace(/\/+$/, '')}/audio/speech`;
    this.id = options.id ?? 'openai';
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.sampleRate = options.sampleRate ?? 24_000;
    if (!(this.timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
    if (!options.model) throw new RangeError('model is required');
    if (options.voices.length === 0) throw new RangeError('voices must name at least one voice');
    this.voiceList = options.voices.map((v) => ({
      id: v.id,
      name: v.name,
      // Throws a RangeError for a language that is not a BCP 47 tag.
      language: Intl.getCanonicalLocales(v.language)[0] ?? v.language,
      ...(v.gender ? { gender: v.gender } : {}),
      sampleRate: this.sampleRate,
    }));
  }

  async voices(): Promise<EngineVoice[]> {
    return this.voiceList.map((v) => ({ ...v }));
  }

  async *synthesize(request: SynthesisRequest): AsyncGenerator<PcmChunk> {
    const voice = this.voiceList.find((v) => v.id === request.voice);
    if (!voice) throw new UnknownVoiceError(this.id, request.voice);
    const { signal } = request;
    signal?.throwIfAborted();
    const sentences = splitSentences(request.text, request.language ?? voice.language);
    // One controller for every request of this call: aborting it (abort, break, error) closes them all.
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const minSamples = Math.round((this.sampleRate * MIN_CHUNK_MS) / 1000);
    try {
      let next = sentences[0] ? this.post(sentences[0].text, voice.id, request.speed, stop.signal) : undefined;
      for (const [index, sentence] of sentences.entries()) {
        const answer = await this.settle(next as Promise<Answer>, signal);
        next = undefined;
        let first = true;
        for await (const samples of this.pcm(answer, minSamples, stop.signal, signal)) {
          const chunk: PcmChunk = { samples, sampleRate: this.sampleRate, channels: 1 };
          if (first) chunk.marker = { kind: 'sentence', index: sentence.index, text: sentence.text };
          first = false;
          yield chunk;
          signal?.throwIfAborted();
        }
        // This sentence has fully arrived: ask for the next while the consumer plays this one.
        const following = sentences[index + 1];
        if (following) next = this.post(following.text, voice.id, request.speed, stop.signal);
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
      stop.abort(new Error('synthesis ended'));
    }
  }

  /** Starts one sentence's request; the promise settles with the response or the mapped error. */
  private post(text: string, voice: string, speed: number, stop: AbortSignal): Promise<Answer> {
    const deadline = new Deadline(this.timeoutMs);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    const body = JSON.stringify({ model: this.options.model, input: text, voice, response_format: 'pcm', speed });
    deadline.arm();
    const signal = AbortSignal.any([stop, deadline.signal]);
    const result = fetch(this.url, { method: 'POST', headers, body, signal }).then(
      async (response) => {
        deadline.disarm();
        if (!response.ok) throw await errorFromResponse(this.url, response);
        const type = response.headers.get('content-type') ?? '';
        if (/json|text|html|mpeg|ogg|wav/i.test(type)) {
          await response.body?.cancel().catch(() => undefined);
          throw badResponseError(this.url, type);
        }
        return { response, deadline };
      },
      (error: unknown) => {
        deadline.disarm();
        if (stop.aborted) throw stop.reason;
        if (deadline.signal.aborted) throw timeoutError(this.url, this.timeoutMs);
        throw unreachableError(this.url, error);
      },
    );
    result.catch(() => undefined); // a read-ahead nobody waits for must not be an unhandled rejection
    return result;
  }

  /** Awaits a response, rejecting with the caller's abort reason as soon as it aborts. */
  private async settle(pending: Promise<Answer>, signal: AbortSignal | undefined): Promise<Answer> {
    if (!signal) return pending;
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      pending.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
    });
  }

  /** The body as Int16 samples (little-endian on the wire), at least `minSamples` a chunk but the last. */
  private async *pcm(
    { response, deadline }: Answer,
    minSamples: number,
    stop: AbortSignal,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<Int16Array> {
    if (!response.body) return;
    const reader = response.body.getReader();
    let carry: Uint8Array = new Uint8Array(0);
    let pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const take = (): Int16Array => {
      const bytes = concat([carry, ...pending]);
      const usable = bytes.length - (bytes.length % 2);
      carry = bytes.slice(usable);
      pending = [];
      pendingBytes = 0;
      const view = new DataView(bytes.buffer, bytes.byteOffset, usable);
      const samples = new Int16Array(usable / 2);
      for (let i = 0; i < samples.length; i++) samples[i] = view.getInt16(i * 2, true);
      return samples;
    };
    try {
      for (;;) {
        let read: Awaited<ReturnType<typeof reader.read>>;
        deadline.arm();
        try {
          read = await reader.read();
        } catch (error) {
          if (stop.aborted || signal?.aborted) throw signal?.reason ?? stop.reason;
          if (deadline.signal.aborted) throw timeoutError(this.url, this.timeoutMs);
          throw unreachableError(this.url, error);
        } finally {
          deadline.disarm();
        }
        if (read.done) break;
        pending.push(read.value);
        pendingBytes += read.value.length;
        if (carry.length + pendingBytes >= minSamples * 2) yield take();
      }
      if (carry.length + pendingBytes >= 2) yield take();
    } finally {
      reader.releaseLock();
      await response.body.cancel().catch(() => undefined);
    }
  }
}

/** A sentence's response and the deadline that covers each read of its body. */
interface Answer {
  response: Response;
  deadline: Deadline;
}

/**
 * The time-out runs only while we wait for the server (the answer to start, each read of its body), never
 * while the consumer takes its time with audio already received: a slow listener is not a slow server.
 */
class Deadline {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  constructor(private readonly ms: number) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  arm(): void {
    this.disarm();
    this.timer = setTimeout(() => this.controller.abort(), this.ms);
    this.timer.unref();
  }

  disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Creates an engine for one OpenAI-compatible server. Nothing connects until the first `synthesize`. */
export function createOpenAiSpeechEngine(options: OpenAiSpeechOptions): OpenAiSpeechEngine {
  return new OpenAiSpeechEngine(options);
}
