/**
 * Messages between the pool (the server's process) and its eSpeak NG child processes, and the errors a
 * request can fail with. Messages go over the child's IPC channel with `advanced` serialization, so PCM
 * travels as an Int16Array.
 */

/** A voice as eSpeak NG's voice data describes it. */
export interface RawVoice {
  /** For example `English (America)`. */
  name: string;
  /** The voice file, for example `gmw/en-US`; `set_voice` accepts it. */
  identifier: string;
  /** 0 unknown, 1 male, 2 female. */
  gender: number;
  /** eSpeak language names, preferred first, for example `en-us`, `en`. */
  languages: string[];
}

export type ToChild =
  | { type: 'voices'; id: number }
  | {
      type: 'synth';
      id: number;
      /** An eSpeak voice name, optionally with a variant: `gmw/en-US+klatt4`. */
      voice: string;
      /** Words per minute. */
      rate: number;
      text: string;
      /** Post PCM once this many samples are buffered. */
      chunkSamples: number;
      /** Tests only (`testing.stallMs`): the child blocks this long before synthesizing (a stuck engine). */
      stallMs?: number;
    };

export type FromChild =
  | { type: 'voices'; id: number; voices: RawVoice[]; sampleRate: number }
  | { type: 'pcm'; id: number; samples: Int16Array }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; message: string };

/**
 * The in-flight request failed because its eSpeak NG child process died (a crash of the WebAssembly engine,
 * or a kill); the server is unaffected and the next request gets a fresh process.
 */
export class EspeakWorkerCrashedError extends Error {
  constructor(detail: string) {
    super(`the eSpeak NG process stopped unexpectedly (${detail}); the request was not completed`);
    this.name = 'EspeakWorkerCrashedError';
  }
}

/** eSpeak NG reported an error for one job (for example a voice it cannot load). */
export class EspeakSynthesisError extends Error {
  constructor(message: string) {
    super(`eSpeak NG failed: ${message}`);
    this.name = 'EspeakSynthesisError';
  }
}

/**
 * Where a pool reports a child that died: a pino logger fits as it is (`logger.error({ pid, signal }, msg)`).
 */
export interface EngineLogger {
  error(details: Record<string, unknown>, message: string): void;
}
