/**
 * The output formats and quality levels of the voice API, and what each combination produces.
 * The table is the contract documented in docs/voice.md ("Audio formats").
 */

/** Every format the voice API can return. `pcm_24k` is offered on streams only. */
export const AUDIO_FORMATS = ['mp3', 'wav', 'ogg_opus', 'mulaw_8k', 'pcm_24k'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

/** `standard` 24 kHz, `studio` 48 kHz, `phone` 8 kHz band-limited to 300-3400 Hz; all cost the same. */
export const AUDIO_QUALITIES = ['standard', 'studio', 'phone'] as const;
export type AudioQuality = (typeof AUDIO_QUALITIES)[number];

/** Names the API accepts for a format besides its own (`ulaw_8000` is the stream alias of `mulaw_8k`). */
const FORMAT_ALIASES: Record<string, AudioFormat> = { ulaw_8000: 'mulaw_8k' };

/** Sample rate each quality stands for, for the formats whose rate follows the quality. */
export const QUALITY_SAMPLE_RATES: Record<AudioQuality, number> = { standard: 24_000, studio: 48_000, phone: 8_000 };

/** The telephone band kept by `phone` quality, in Hz. */
export const PHONE_BAND = { lowHz: 300, highHz: 3_400 } as const;

/**
 * `Content-Type` of every `POST /api/v1/voice/stream` answer, whatever the format: the format itself is in
 * the `Service-Audio-*` headers.
 */
export const STREAM_CONTENT_TYPE = 'application/octet-stream';

/** Static facts about one format. */
export interface FormatInfo {
  format: AudioFormat;
  /**
   * `Content-Type` of a response or download holding this format. `pcm_24k` is little-endian, which
   * `audio/L16` (big-endian by RFC 2586) cannot describe, so it is `application/octet-stream`.
   */
  contentType: string;
  /** Value of the stream's `Service-Audio-Encoding` header. */
  encoding: string;
  /** File name extension without the dot. */
  extension: string;
  /** A fixed sample rate (the raw formats), or null when the quality decides. */
  fixedSampleRate: number | null;
  /** Quality used when the request names none: `phone` for `mulaw_8k`, `standard` otherwise. */
  defaultQuality: AudioQuality;
  /** A raw sample stream without any header: an empty input gives zero bytes. */
  raw: boolean;
}

const INFO: Record<AudioFormat, FormatInfo> = {
  mp3: {
    format: 'mp3',
    contentType: 'audio/mpeg',
    encoding: 'mp3',
    extension: 'mp3',
    fixedSampleRate: null,
    defaultQuality: 'standard',
    raw: false,
  },
  wav: {
    format: 'wav',
    contentType: 'audio/wav',
    encoding: 'pcm_s16le',
    extension: 'wav',
    fixedSampleRate: null,
    defaultQuality: 'standard',
    raw: false,
  },
  ogg_opus: {
    format: 'ogg_opus',
    contentType: 'audio/ogg',
    encoding: 'opus',
    extension: 'ogg',
    fixedSampleRate: null,
    defaultQuality: 'standard',
    raw: false,
  },
  mulaw_8k: {
    format: 'mulaw_8k',
    contentType: 'audio/basic',
    encoding: 'pcm_mulaw',
    extension: 'ulaw',
    fixedSampleRate: 8_000,
    defaultQuality: 'phone',
    raw: true,
  },
  pcm_24k: {
    format: 'pcm_24k',
    contentType: 'application/octet-stream',
    encoding: 'pcm_s16le',
    extension: 'pcm',
    fixedSampleRate: 24_000,
    defaultQuality: 'standard',
    raw: true,
  },
};

/** Resolves a format name or alias (`ulaw_8000`); undefined for anything else. */
export function parseAudioFormat(name: string): AudioFormat | undefined {
  if ((AUDIO_FORMATS as readonly string[]).includes(name)) return name as AudioFormat;
  return FORMAT_ALIASES[name];
}

/** True for `standard`, `studio` and `phone`. */
export function isAudioQuality(name: string): name is AudioQuality {
  return (AUDIO_QUALITIES as readonly string[]).includes(name);
}

export function formatInfo(format: AudioFormat): FormatInfo {
  const info = INFO[format];
  if (!info) throw new RangeError(`unknown audio format: ${String(format)}`);
  return info;
}

/** What an encoder for `format` at `quality` writes: the numbers behind the stream headers and `audio`. */
export interface OutputSpec extends FormatInfo {
  quality: AudioQuality;
  /**
   * Sample rate of the encoded audio in Hz (`Service-Audio-Sample-Rate`, `audio.sample_rate`). For
   * `ogg_opus` it is the rate the audio was encoded at; Opus decoders always play back at 48 kHz.
   */
  sampleRate: number;
  /** Always 1: speech is mono. */
  channels: 1;
  /** Whether the 300-3400 Hz telephone band filter is applied. */
  bandLimited: boolean;
}

/**
 * The output of `format` at `quality` (the format's default quality when omitted). Formats with a fixed
 * rate (`mulaw_8k`, `pcm_24k`) keep it at every quality; `phone` still band-limits them.
 */
export function outputSpec(format: AudioFormat, quality?: AudioQuality): OutputSpec {
  const info = formatInfo(format);
  const q = quality ?? info.defaultQuality;
  if (!isAudioQuality(q)) throw new RangeError(`unknown audio quality: ${String(q)}`);
  return {
    ...info,
    quality: q,
    sampleRate: info.fixedSampleRate ?? QUALITY_SAMPLE_RATES[q],
    channels: 1,
    bandLimited: q === 'phone',
  };
}

/** The response headers of a voice stream that describe its audio. */
export function streamAudioHeaders(spec: OutputSpec): Record<string, string> {
  return {
    'Service-Audio-Format': spec.format,
    'Service-Audio-Encoding': spec.encoding,
    'Service-Audio-Sample-Rate': String(spec.sampleRate),
    'Service-Audio-Channels': String(spec.channels),
  };
}
