import { inject, injectable } from 'tsyringe';
import { badRequest, conflict, FormloomError } from '../errors';
import type { Principal } from '../domain/types';
import type { AudioEncoding } from '../ports/audio-encoding';
import type { BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Logger } from '../logger';
import { engineWarmingUp, type PcmChunk } from '../ports/speech-engine';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { ByteQueue } from './byte-queue';
import { MAX_STREAM_CHARACTERS } from './pricing';
import { NOT_ON_STREAM, parseOr400, streamRequestSchema } from './schemas';
import { formatKey, masterKey } from './synthesis';
import { engineFailure, type PreparedSpeech, VoiceFailure, VoiceService } from './voice-service';

/** Checks a stream body: options a stream cannot honour get 400 `not_on_stream`. */
export function parseStreamBody(raw: unknown) {
  if (raw && typeof raw === 'object') {
    const unavailable = NOT_ON_STREAM.find((k) => k in raw);
    if (unavailable) throw badRequest(`${unavailable}: not available on a stream; use POST /api/v1/voice`, { reason: 'not_on_stream', field: unavailable });
  }
  const body = parseOr400(streamRequestSchema, raw);
  return { ...body, format: body.format === 'ulaw_8000' ? 'mulaw_8k' : (body.format ?? 'mp3') };
}

/**
 * `POST /api/v1/voice/stream` (docs/voice.md, "Streaming"): charged when the stream starts; audio goes out
 * as each sentence is made. A failure before the first byte is credited back and answered as an error. Once
 * started, the generation runs to the end and is saved whether or not the client still reads.
 */
@injectable()
export class VoiceStreamService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Audio) private readonly audio: AudioEncoding,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(VoiceService) private readonly voice: VoiceService,
  ) {}

  async start(principal: Principal, raw: unknown) {
    const body = parseStreamBody(raw);
    const p = await this.voice.prepare({ mode: 'speak', text: body.text, voice: body.voice, language: body.language, quality: body.quality }, body.format, MAX_STREAM_CHARACTERS, null);
    if (body.max_credits !== undefined && p.credits > body.max_credits) {
      throw new VoiceFailure(conflict(`This request costs ${p.credits} credits, over max_credits ${body.max_credits}`, { reason: 'max_credits_exceeded', credits_estimated: p.credits, max_credits: body.max_credits }), p.credits);
    }
    const billing = this.voice.billing;
    await billing.assertEnabled(principal).catch((e) => rethrow(e, p.credits));
    const id = this.ids.id('gen');
    const balance = await billing.charge(principal, id, p.credits).catch((e) => rethrow(e, p.credits));
    const generation = this.voice.newGeneration(principal, id, p, body, 'stream');
    await this.storage.voiceGenerations.insert(generation);
    const pcm = p.engine.synthesize({ text: p.text, voice: p.voice.engine_voice, language: p.language, speed: 1 })[Symbol.asyncIterator]();
    const firstPcm = pcm.next();
    firstPcm.catch(() => undefined); // awaited below
    // Encoding starts now, while the engine makes the first sentence: the encoder's set-up (an MP3 stream's
    // LAME worker) overlaps the synthesis instead of delaying the first audio (docs/voice.md, "Streaming").
    const queue = new ByteQueue();
    void this.produce(principal, id, p, firstPcm, pcm, queue);
    try {
      await firstPcm;
    } catch (e) {
      await this.failed(principal, id, e);
      throw engineFailure(e, id, p.credits);
    }
    return { generation, balance, output: p.output, stream: queue };
  }

  /**
   * Encodes and forwards every chunk, then saves the audio; runs to the end whatever the client does. A
   * failure of the first chunk is `start`'s to answer and credit back; later ones are handled here.
   */
  private async produce(principal: Principal, id: string, p: PreparedSpeech, firstPcm: Promise<IteratorResult<PcmChunk>>, rest: AsyncIterator<PcmChunk>, queue: ByteQueue) {
    const chunks: PcmChunk[] = [];
    async function* source() {
      const first = await firstPcm;
      if (first.done) return;
      chunks.push(first.value);
      yield first.value;
      for (let r = await rest.next(); !r.done; r = await rest.next()) {
        chunks.push(r.value);
        yield r.value;
      }
    }
    const parts: Uint8Array[] = [];
    let durationMs = 0;
    try {
      for await (const bytes of this.audio.encode(source(), { format: p.output.format, quality: p.quality, onFinish: (d) => (durationMs = d.durationMs) })) {
        parts.push(bytes);
        queue.push(bytes);
      }
      const master = await this.audio.encodeToBuffer(chunks, { format: 'wav', quality: p.quality });
      await this.blobs.put(masterKey(id), master.bytes, 'audio/wav');
      // Stream formats (mp3, pcm_24k, mulaw_8k) have no header to patch: the bytes sent are the file.
      await this.blobs.put(formatKey(id, p.output.format), Buffer.concat(parts), p.output.contentType);
      await this.storage.voiceGenerations.update(id, {
        status: 'ready',
        sample_rate: p.output.sampleRate,
        duration_seconds: Math.round(durationMs) / 1000,
        updated_at: this.clock.now().toISOString(),
      });
      queue.end();
    } catch (e) {
      const firstFailed = await firstPcm.then(() => false, () => true);
      if (!firstFailed) await this.failed(principal, id, e).catch(() => undefined);
      queue.fail(e);
    }
  }

  private async failed(principal: Principal, id: string, e: unknown) {
    this.logger.error('voice stream failed', { generation_id: id, error: String(e) });
    await this.voice.billing.creditBack(principal.user_id, id);
    const error = engineWarmingUp(e) === null ? 'engine_failed' : 'engine_warming_up';
    await this.storage.voiceGenerations.update(id, { status: 'failed', credits_charged: 0, error, updated_at: this.clock.now().toISOString() });
  }
}

function rethrow(e: unknown, estimated: number): never {
  if (e instanceof FormloomError) throw new VoiceFailure(e, estimated);
  throw e;
}
