/**
 * The one error type the Flite engine rejects with (besides the port's `UnknownVoiceError`, `RangeError`
 * for a bad speed, and an abort signal's own reason). Its `code` tells the voice service what happened;
 * every code means the request's audio is incomplete, so a charged request is credited back. See
 * docs/voice.md ("Flite voices").
 */

/**
 * - `crashed`: the child process running Flite died during this request after audio had already been
 *   yielded (a crash before the first chunk is retried once on a fresh child instead; a second crash
 *   rejects with this code too).
 * - `timeout`: one sentence took longer than `callTimeoutMs`; its child was killed and replaced.
 * - `synthesis_failed`: Flite itself reported an error (non-zero exit, unreadable output).
 * - `start_failed`: no child could be started (for example the wasm file is missing).
 * - `closed`: the engine was closed while the request was queued or running.
 */
export type FliteErrorCode = 'crashed' | 'timeout' | 'synthesis_failed' | 'start_failed' | 'closed';

export class FliteEngineError extends Error {
  /** The engine id, as in `SpeechEngine.id`. */
  readonly engine = 'flite';

  constructor(readonly code: FliteErrorCode, message: string) {
    super(message);
    this.name = 'FliteEngineError';
  }
}

/** True for a {@link FliteEngineError}, also across copies of this package (duck-typed on name and code). */
export function isFliteEngineError(error: unknown): error is FliteEngineError {
  return (
    error instanceof FliteEngineError ||
    (error instanceof Error &&
      error.name === 'FliteEngineError' &&
      typeof (error as { code?: unknown }).code === 'string')
  );
}
