/**
 * Messages between `IsolatedAudioCodecs` (the server's process) and its encoder child processes
 * (child.ts). They go over the IPC channel with `advanced` serialization: PCM and bytes travel as typed
 * arrays. Each stream has an id chosen by the parent; each call on it (a write, the finish) has an id its
 * answer carries.
 */

export type ToEncoder =
  | { type: 'open'; stream: number; format: string; quality: string }
  | {
      type: 'write';
      stream: number;
      call: number;
      samples: Int16Array | Float32Array;
      sampleRate: number;
      channels: number;
    }
  | { type: 'finish'; stream: number; call: number }
  | { type: 'abort'; stream: number };

export type FromEncoder =
  | { type: 'bytes'; stream: number; call: number; bytes: Uint8Array }
  | { type: 'finished'; stream: number; call: number; bytes: Uint8Array; durationMs: number; finalHeader?: Uint8Array }
  | { type: 'error'; stream: number; call: number; message: string };

/**
 * A stream's encoder process died (a crash of a WebAssembly codec, or a kill): every stream it was encoding
 * fails with this error; the server is unaffected and the next stream starts a fresh process.
 */
export class AudioEncoderCrashedError extends Error {
  constructor(detail: string) {
    super(`the audio encoder process stopped unexpectedly (${detail}); the stream was not completed`);
    this.name = 'AudioEncoderCrashedError';
  }
}

/** Where a pool reports a child that died: a pino logger fits as it is (`logger.error({ pid }, msg)`). */
export interface EncoderLogger {
  error(details: Record<string, unknown>, message: string): void;
}
