import { inject, injectable } from 'tsyringe';
import { FormloomError } from '../errors';
import { sha256Hex } from '../hashing';
import type { Logger } from '../logger';
import type { AudioEncoding } from '../ports/audio-encoding';
import type { BlobStore } from '../ports/blob-store';
import { engineWarmingUp } from '../ports/speech-engine';
import { TOKENS } from '../tokens';
import { VoiceCatalog } from './catalog';
import { previewText } from './preview-text';
import { collectPcm } from './synthesis';

/**
 * Bumped when previews should be made again although their text did not change (an engine upgrade that
 * changes how a voice sounds): it is part of the blob key.
 */
const PREVIEW_VERSION = 1;

/** Where a voice's preview is kept: one blob per voice and text, shared by every account and instance. */
export const previewKey = (voiceId: string, text: string, format: string, quality: string) =>
  `voice-previews/${voiceId}/${sha256Hex(`${PREVIEW_VERSION}\u0000${text}\u0000${format}\u0000${quality}`).slice(0, 24)}.${format}`;

export interface VoicePreview {
  bytes: Uint8Array;
  contentType: string;
  text: string;
}

/**
 * Free previews of the stock voices (docs/voice.md, "Previews"): a short sentence in the voice's language,
 * made on the first request and then served from the blob store. Nothing is charged, no generation is
 * recorded and no generation limit is counted: the words are ours and the same for everyone, so a preview
 * costs one synthesis per voice for the life of the store. Concurrent first requests on one instance share
 * one synthesis.
 */
@injectable()
export class VoicePreviews {
  private readonly rendering = new Map<string, Promise<VoicePreview>>();

  constructor(
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Audio) private readonly audio: AudioEncoding,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(VoiceCatalog) private readonly catalog: VoiceCatalog,
  ) {}

  /** The preview of stock voice `voiceId` (mp3); 404 `voice_not_found` for an unknown id. */
  async preview(voiceId: string): Promise<VoicePreview> {
    const found = await this.catalog.find(voiceId);
    if (!found) throw new FormloomError('NOT_FOUND', `No voice ${voiceId} (see GET /api/v1/voice/voices)`, { reason: 'voice_not_found' });
    const text = previewText(found.voice.language_code);
    const output = this.audio.outputSpec({ format: 'mp3', quality: 'standard' });
    const key = previewKey(voiceId, text, output.format, output.quality);
    const stored = await this.blobs.get(key);
    if (stored) return { bytes: stored.data, contentType: stored.contentType, text };
    let pending = this.rendering.get(key);
    if (!pending) {
      pending = (async () => {
        const pcm = await collectPcm(found.engine, { text, voice: found.voice.engine_voice, speed: 1 });
        const encoded = await this.audio.encodeToBuffer(pcm, { format: output.format, quality: output.quality });
        await this.blobs.put(key, encoded.bytes, output.contentType);
        return { bytes: encoded.bytes, contentType: output.contentType, text };
      })()
        .catch((e) => {
          throw this.failure(e, voiceId);
        })
        .finally(() => this.rendering.delete(key));
      this.rendering.set(key, pending);
    }
    return pending;
  }

  /** An engine that is starting is 503 `WARMING_UP` (retry); any other failure 500 `preview_failed`. */
  private failure(e: unknown, voiceId: string): FormloomError {
    const retryAfter = engineWarmingUp(e);
    if (retryAfter !== null) {
      return new FormloomError('WARMING_UP', `The voice engine is starting; retry in ${retryAfter} s`, { retry_after: retryAfter });
    }
    this.logger.error('voice preview failed', { voice_id: voiceId, error: String(e) });
    return new FormloomError('INTERNAL_ERROR', 'The preview could not be made; try again later', { reason: 'preview_failed' });
  }
}
