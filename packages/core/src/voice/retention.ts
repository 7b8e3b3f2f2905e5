import { inject, injectable } from 'tsyringe';
import type { BlobStore } from '../ports/blob-store';
import type { Logger } from '../logger';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { generationPrefix } from './synthesis';

const BATCH = 200;

/**
 * The 30-day retention of unsaved audio (docs/voice.md, "Reuse and retention"), run by the outbox worker's
 * housekeeping: each generation past its `retained_until` is marked `audio_deleted_at` (taken once across
 * instances), then its audio blobs are deleted. The record stays in the library with `audio: null`, its
 * credits and words intact; reuse no longer finds it, and downloads answer 404 `audio_expired`.
 */
@injectable()
export class VoiceRetentionHandler implements OutboxHandler {
  readonly kind = 'voice_retention';

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Logger) private readonly logger: Logger,
  ) {}

  /** Deletes the audio of every generation whose retention ended at or before `now`. */
  async sweep(now: Date): Promise<void> {
    for (let round = 0; round < 100; round++) {
      const taken = await this.storage.voiceGenerations.takeExpired(now.toISOString(), BATCH);
      for (const g of taken) await this.blobs.deletePrefix(generationPrefix(g.id));
      if (taken.length > 0) this.logger.info('voice audio past retention deleted', { generations: taken.length });
      if (taken.length < BATCH) return;
    }
  }

  /** Nothing is enqueued of this kind; the handler exists for its sweep. */
  async handle(): Promise<OutboxOutcome> {
    return { status: 'delivered' };
  }
}
