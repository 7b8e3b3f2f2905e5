import type { PcmChunk } from './speech-engine';

/**
 * The audio-encoding port: engine PCM in, bytes of one voice-API format out. `@formloom/audio`'s
 * `createAudioCodecs()` implements it (docs/voice.md, "Audio formats"); the voice service uses it for every
 * generation, download and stream.
 */
export interface AudioOutput {
  format: string;
  quality: string;
  /** `Content-Type` of a download in this format. */
  contentType: string;
  /** Value of `Service-Audio-Encoding` (for example `pcm_s16le`). */
  encoding: string;
  sampleRate: number;
  channels: number;
  /** File name extension without the dot. */
  extension: string;
}

export interface AudioEncodeOptions {
  /** A format name or alias (`ulaw_8000`). */
  format: string;
  /** `standard`, `studio` or `phone`; the format's default when omitted. */
  quality?: string;
  signal?: AbortSignal;
}

export interface AudioEncoding {
  /** What `format` at `quality` produces. Throws RangeError for an unknown format or quality. */
  outputSpec(options: { format: string; quality?: string }): AudioOutput;
  /**
   * Encodes a PCM stream, yielding bytes as they become ready (pull-based); the concatenation is a valid
   * file. `onFinish` gets the encoded duration once the source is exhausted.
   */
  encode(
    source: AsyncIterable<PcmChunk> | Iterable<PcmChunk>,
    options: AudioEncodeOptions & { onFinish?: (done: { durationMs: number }) => void },
  ): AsyncIterable<Uint8Array>;
  /** Encodes a PCM stream into one buffer (a WAV header carries the exact sizes). */
  encodeToBuffer(
    source: AsyncIterable<PcmChunk> | Iterable<PcmChunk>,
    options: AudioEncodeOptions,
  ): Promise<{ bytes: Uint8Array; durationMs: number; spec: AudioOutput }>;
}
