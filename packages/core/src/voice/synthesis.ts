import type { AudioEncoding } from '../ports/audio-encoding';
import type { PcmChunk, SpeechEngine } from '../ports/speech-engine';

/** Blob keys of a generation: its master WAV (every download is encoded from it) and each encoded format. */
export const generationPrefix = (id: string) => `voice/${id}/`;
export const masterKey = (id: string) => `voice/${id}/master.wav`;
export const formatKey = (id: string, format: string) => `voice/${id}/audio.${format}`;
/** Every format a generation's audio may be stored in (`formatKey`), aliases resolved (`ulaw_8000` is `mulaw_8k`). */
export const STORED_FORMATS = ['mp3', 'wav', 'ogg_opus', 'mulaw_8k', 'pcm_24k'] as const;

/** Every PCM chunk of one synthesis (a synchronous request is at most 5,000 characters). */
export async function collectPcm(
  engine: SpeechEngine,
  request: { text: string; voice: string; language?: string; speed: number; signal?: AbortSignal },
): Promise<PcmChunk[]> {
  const chunks: PcmChunk[] = [];
  for await (const chunk of engine.synthesize(request)) chunks.push(chunk);
  return chunks;
}

/** The PCM of a WAV file our encoder wrote (16-bit mono): walks the RIFF chunks to `data`. */
export function pcmOfWav(bytes: Uint8Array): PcmChunk {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let sampleRate = 24_000;
  let channels = 1;
  let offset = 12;
  while (offset + 8 <= bytes.length) {
    const id = String.fromCharCode(...bytes.subarray(offset, offset + 4));
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ') {
      channels = view.getUint16(offset + 10, true);
      sampleRate = view.getUint32(offset + 12, true);
    } else if (id === 'data') {
      const end = Math.min(bytes.length, offset + 8 + size);
      const data = bytes.slice(offset + 8, end - ((end - offset - 8) % 2));
      return { samples: new Int16Array(data.buffer, data.byteOffset, data.byteLength / 2), sampleRate, channels };
    }
    offset += 8 + size + (size % 2);
  }
  return { samples: new Int16Array(0), sampleRate, channels };
}

/** Encodes the same PCM twice: the requested format and the master WAV at the same quality. */
export async function encodeBoth(audio: AudioEncoding, pcm: PcmChunk[], format: string, quality: string) {
  const main = await audio.encodeToBuffer(pcm, { format, quality });
  const master = format === 'wav' ? main : await audio.encodeToBuffer(pcm, { format: 'wav', quality });
  return { main, master };
}
