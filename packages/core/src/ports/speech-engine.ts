/**
 * The speech-engine port: text in, PCM out. Engines (embedded eSpeak NG, Flite, an OpenAI-compatible server)
 * implement it; the voice service turns their PCM into the requested format with `@formloom/audio`.
 * See docs/voice.md.
 */

/** A voice as one engine knows it. The voice service maps these to public `nv_<id>` voices. */
export interface EngineVoice {
  /** The engine's own id for the voice (for example `en-us+klatt4` or `rms`); stable across restarts. */
  id: string;
  /** A human-readable name. */
  name: string;
  /** BCP 47 language tag the voice speaks (for example `en-US`, `de`). */
  language: string;
  gender?: 'female' | 'male' | 'neutral';
  /** Sample rate in Hz of the PCM the engine produces for this voice (for example 22050 or 16000). */
  sampleRate: number;
}

/** What to say and how. */
export interface SynthesisRequest {
  /** The words to read. Engines may split it into sentences and synthesize them one after another. */
  text: string;
  /** An {@link EngineVoice.id} from this engine's {@link SpeechEngine.voices}. */
  voice: string;
  /** BCP 47 tag or language name; when omitted, the voice's own language. */
  language?: string;
  /** Speaking rate relative to the voice's normal rate: 1 is normal; the API allows 0.85 to 1.15. */
  speed: number;
  /** Aborting it stops synthesis; see {@link SpeechEngine.synthesize}. */
  signal?: AbortSignal;
}

/** Where a chunk begins in the text: the first chunk of each sentence (or script line) carries one. */
export interface PcmMarker {
  kind: 'sentence' | 'line';
  /** 0-based index of the sentence or line within the request. */
  index: number;
  /** The text of that sentence or line, when the engine knows it. */
  text?: string;
}

/**
 * A piece of raw audio. `samples` are interleaved when `channels` > 1. `Int16Array` samples use the full
 * signed 16-bit range; `Float32Array` samples lie in [-1, 1] (values outside are clipped when encoded).
 */
export interface PcmChunk {
  samples: Int16Array | Float32Array;
  /**
   * Hz, for example 22050 (eSpeak NG) or 16000 (Flite). May differ between engines, never within one
   * `synthesize` call.
   */
  sampleRate: number;
  /** 1 for mono (every embedded engine), 2 for stereo. */
  channels: number;
  /** Present on the first chunk of a sentence or line. */
  marker?: PcmMarker;
}

/**
 * Thrown (as the rejection of the first `next()` of {@link SpeechEngine.synthesize}'s iterator) when the
 * request names a voice this engine does not have. The voice service checks voices before charging, so
 * reaching this is a server-side inconsistency, not bad client input.
 */
export class UnknownVoiceError extends Error {
  constructor(readonly engine: string, readonly voice: string) {
    super(`speech engine ${engine} has no voice ${voice}`);
    this.name = 'UnknownVoiceError';
  }
}

/** Turns text into PCM. Implementations hold no per-request state between calls and may run concurrently. */
export interface SpeechEngine {
  /** Stable engine id (for example `espeak`, `flite`, `openai`); part of every voice's identity. */
  readonly id: string;

  /** The voices this engine can speak with. May load the engine on first call; cheap afterwards. */
  voices(): Promise<EngineVoice[]>;

  /**
   * Synthesizes `request.text` and yields PCM as it is made: engines synthesize sentence by sentence (or
   * line by line) and yield each sentence's audio as soon as it exists, so that a stream can start before
   * the whole text is spoken. Every chunk of one call has the same sample rate and channel count; the
   * first chunk of each sentence carries a {@link PcmMarker}. Nothing is yielded for empty text.
   *
   * Errors surface as the rejection of the iterator's `next()`: an unknown `request.voice` rejects the
   * first `next()` with {@link UnknownVoiceError} before any audio; an engine failure rejects the `next()`
   * at which it happens (chunks already yielded stay valid).
   *
   * Cancellation: when `request.signal` aborts, the engine stops work (terminates its worker or HTTP
   * request) and the pending or next `next()` rejects with the signal's reason. Calling `return()` on the
   * iterator (a consumer's `break`) also stops the work and frees its resources; no chunk is produced
   * after either.
   */
  synthesize(request: SynthesisRequest): AsyncIterable<PcmChunk>;
}

/**
 * Thrown (as the rejection of the first `next()` of {@link SpeechEngine.synthesize}'s iterator) by an engine
 * that is still starting and cannot make audio yet (a model server loading its weights, for example). The
 * voice service credits the request back and answers 503 `WARMING_UP` with `Retry-After:
 * retryAfterSeconds`. An error of another class says the same with `warmingUp: true` and a numeric
 * `retryAfterSeconds` (see {@link engineWarmingUp}).
 */
export class EngineWarmingUpError extends Error {
  readonly warmingUp = true;
  constructor(readonly engine: string, readonly retryAfterSeconds = 5, message = `speech engine ${engine} is starting; retry in ${retryAfterSeconds} s`) {
    super(message);
    this.name = 'EngineWarmingUpError';
  }
}

/** Seconds to wait when `e` says its engine is warming up ({@link EngineWarmingUpError} or an error with `warmingUp: true`); null otherwise. */
export function engineWarmingUp(e: unknown): number | null {
  if (!e || typeof e !== 'object' || (e as { warmingUp?: unknown }).warmingUp !== true) return null;
  const after = Number((e as { retryAfterSeconds?: unknown }).retryAfterSeconds);
  return Number.isFinite(after) && after >= 1 ? Math.ceil(after) : 5;
}
