/** Messages between the engine's pool (main thread) and its eSpeak NG worker threads. */

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

export type ToWorker =
  | { type: 'warm'; id: number }
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
    };

export type FromWorker =
  | { type: 'ready'; id: number; sampleRate: number }
  | { type: 'voices'; id: number; voices: RawVoice[]; sampleRate: number }
  | { type: 'pcm'; id: number; samples: Int16Array }
  | { type: 'done'; id: number }
  | { type: 'error'; id: number; message: string };
