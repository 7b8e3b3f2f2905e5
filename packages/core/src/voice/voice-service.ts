import { inject, injectable } from 'tsyringe';
import { badRequest, conflict, FormloomError, notFound } from '../errors';
import type { Principal } from '../domain/types';
import type { AudioEncoding, AudioOutput } from '../ports/audio-encoding';
import { openBlobStream, type BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Logger } from '../logger';
import type { Storage } from '../ports/storage';
import type { VoiceGeneration } from '../ports/storage/voice-generations';
import { engineWarmingUp, type SpeechEngine } from '../ports/speech-engine';
import { TOKENS } from '../tokens';
import { languageName, type StockVoice, VoiceCatalog } from './catalog';
import { VoiceBilling } from './billing';
import { creditsFor, MAX_STREAM_CHARACTERS, MAX_SYNC_CHARACTERS, secondsEstimated, spokenCharacters } from './pricing';
import { checkSpeak, type VoiceRequest } from './schemas';
import { requestHash, RETENTION_MS } from './reuse';
import { collectPcm, encodeBoth, formatKey, generationPrefix, masterKey, pcmOfWav, STORED_FORMATS } from './synthesis';


/** A generation `rendering` for longer than this is taken for abandoned (its process ended): it may be deleted. */
export const STALE_RENDER_MS = 15 * 60 * 1000;

/** A checked speak request and its price. */
export interface PreparedSpeech {
  text: string;
  voice: StockVoice;
  engine: SpeechEngine;
  speed: number;
  language: string | undefined;
  quality: string;
  output: AudioOutput;
  characters: number;
  credits: number;
}

export interface SpeakOptions {
  formatOverride?: string;
  generationId?: string;
  /** Already checked and priced (a retake's words): `prepare` is not run again. */
  prepared?: PreparedSpeech;
  /** The generation a charged retake retakes. */
  retakeOf?: string;
}

/** A charged generation whose audio is still to be made. */
export interface StartedSpeech {
  generation: VoiceGeneration;
  p: PreparedSpeech;
  balance: number;
}

/** Thrown by voice operations: the error plus what the `Service-*` headers of the answer report. */
export class VoiceFailure extends Error {
  constructor(readonly error: FormloomError, readonly estimated = 0, readonly generationId?: string) {
    super(error.message);
  }
}

/**
 * The answer to an engine failure before any audio was kept (charge credited back): 503 `WARMING_UP` with
 * `retry_after` (the `Retry-After` header) when the engine is still starting, else 500 `generation_failed`.
 */
export function engineFailure(e: unknown, generationId: string, estimated: number): VoiceFailure {
  const retryAfter = engineWarmingUp(e);
  if (retryAfter !== null) {
    return new VoiceFailure(
      new FormloomError('WARMING_UP', `The voice engine is starting; retry in ${retryAfter} s. Nothing was charged`, { retry_after: retryAfter, generation_id: generationId }),
      estimated,
      generationId,
    );
  }
  return new VoiceFailure(new FormloomError('INTERNAL_ERROR', 'Speech generation failed; nothing was charged', { reason: 'generation_failed', generation_id: generationId }), estimated, generationId);
}

/** Estimates, synchronous generations and the library (docs/voice.md). */
@injectable()
export class VoiceService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Audio) private readonly audio: AudioEncoding,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(VoiceCatalog) readonly catalog: VoiceCatalog,
    @inject(VoiceBilling) readonly billing: VoiceBilling,
  ) {}

  /**
   * Validates a speak (or estimate) body and prices it; nothing is charged. `quality` defaults to `standard`
   * for every format of `POST /voice`; a stream passes `defaultQuality: null` (its formats' own default:
   * `phone` for `mulaw_8k`, docs/voice.md "Audio formats").
   */
  async prepare(body: VoiceRequest, formatOverride?: string, maxCharacters = MAX_SYNC_CHARACTERS, defaultQuality: VoiceRequest['quality'] | null = 'standard'): Promise<PreparedSpeech> {
    const { text, voice: voiceId, speed } = checkSpeak(body);
    const characters = spokenCharacters(text);
    if (maxCharacters === MAX_STREAM_CHARACTERS && characters > maxCharacters) {
      throw new FormloomError('TEXT_TOO_LONG', `text: ${characters} spoken characters; a stream takes at most ${maxCharacters}`, { max_characters: maxCharacters });
    }
    const found = await this.catalog.find(voiceId);
    if (!found) throw badRequest(`voice: no voice ${voiceId} (see GET /api/v1/voice/voices)`, { field: 'voice', reason: 'voice_not_found' });
    if (characters > maxCharacters) {
      throw badRequest(`text: ${characters} spoken characters; at most ${maxCharacters} per request`, {
        field: 'text',
        reason: 'too_many_characters',
        max_characters: maxCharacters,
      });
    }
    const output = this.audio.outputSpec({ format: formatOverride ?? body.format ?? 'mp3', quality: body.quality ?? defaultQuality ?? undefined });
    return { text, voice: found.voice, engine: found.engine, speed, language: body.language, quality: output.quality, output, characters, credits: creditsFor(characters) };
  }

  async estimate(principal: Principal, body: VoiceRequest) {
    const p = await this.prepare(body);
    const { balance, enough } = await this.billing.quote(principal, p.credits);
    return {
      object: 'voice.estimate',
      characters: p.characters,
      credits: p.credits,
      seconds_estimated: secondsEstimated(p.characters, p.speed),
      balance,
      enough,
    };
  }

  /**
   * Prices, checks and charges a speak request, then synthesizes, encodes and stores it. Charged once, at the
   * start; a failure afterwards is credited back and the generation saved as `failed`.
   */
  async speak(principal: Principal, body: VoiceRequest, opts: SpeakOptions = {}) {
    return this.render(principal, await this.begin(principal, body, opts));
  }

  /** The first half of `speak`: checks, charges and records the generation as `rendering`. */
  async begin(principal: Principal, body: VoiceRequest, opts: SpeakOptions = {}): Promise<StartedSpeech> {
    const p = opts.prepared ?? (await this.prepare(body, opts.formatOverride));
    if (body.max_credits !== undefined && p.credits > body.max_credits) {
      throw new VoiceFailure(conflict(`This request costs ${p.credits} credits, over max_credits ${body.max_credits}`, {
        reason: 'max_credits_exceeded', credits_estimated: p.credits, max_credits: body.max_credits,
      }), p.credits);
    }
    await this.billing.assertEnabled(principal).catch((e) => this.fail(e, p.credits));
    const id = opts.generationId ?? this.ids.id('gen');
    const balance = await this.billing.charge(principal, id, p.credits).catch((e) => this.fail(e, p.credits));
    const generation = { ...this.newGeneration(principal, id, p, body), retake_of: opts.retakeOf ?? null };
    await this.storage.voiceGenerations.insert(generation);
    return { generation, p, balance };
  }

  /** The second half of `speak`: synthesis, encoding, storage; a failure is credited back and saved as `failed`. */
  async render(principal: Principal, started: StartedSpeech) {
    const { generation, p, balance: balanceAfterCharge } = started;
    const id = generation.id;
    try {
      const { main, master } = await this.synthesizeAudio(p);
      await this.blobs.put(masterKey(id), master.bytes, 'audio/wav');
      await this.blobs.put(formatKey(id, p.output.format), main.bytes, p.output.contentType);
      const patch = { status: 'ready' as const, sample_rate: main.spec.sampleRate, duration_seconds: Math.round(main.durationMs) / 1000, updated_at: this.now() };
      await this.storage.voiceGenerations.update(id, patch);
      return { generation: { ...generation, ...patch }, bytes: main.bytes, contentType: p.output.contentType, balance: balanceAfterCharge };
    } catch (e) {
      this.logger.error('voice generation failed', { generation_id: id, error: String(e) });
      await this.billing.creditBack(principal.user_id, id);
      const warming = engineWarmingUp(e);
      await this.storage.voiceGenerations.update(id, { status: 'failed', credits_charged: 0, error: warming === null ? 'engine_failed' : 'engine_warming_up', updated_at: this.now() });
      throw engineFailure(e, id, p.credits);
    }
  }

  /** Synthesizes and encodes `p`: the requested format and the master WAV. */
  async synthesizeAudio(p: PreparedSpeech) {
    const pcm = await collectPcm(p.engine, { text: p.text, voice: p.voice.engine_voice, language: p.language, speed: p.speed });
    return encodeBoth(this.audio, pcm, p.output.format, p.quality);
  }

  /**
   * Puts a new take in place of generation `id`'s audio: the master, `p`'s format, and every other format
   * stored from the old take encoded again from the new master. Puts only (each atomic), no folder delete,
   * so concurrent free retakes of one clip leave whole blobs, each of one take.
   */
  /** Removes every file of a generation (deleted meanwhile: what a late writer put there must go too). */
  async discardAudio(id: string): Promise<void> {
    await this.blobs.deletePrefix(generationPrefix(id));
  }

  async replaceAudio(id: string, p: { output: AudioOutput; quality: string }, audio: { main: { bytes: Uint8Array }; master: { bytes: Uint8Array } }): Promise<void> {
    await this.blobs.put(masterKey(id), audio.master.bytes, 'audio/wav');
    await this.blobs.put(formatKey(id, p.output.format), audio.main.bytes, p.output.contentType);
    for (const format of STORED_FORMATS) {
      if (format === p.output.format || !(await this.blobs.get(formatKey(id, format)))) continue;
      const wanted = this.audio.outputSpec({ format, quality: p.quality });
      const encoded = await this.audio.encodeToBuffer([pcmOfWav(audio.master.bytes)], { format: wanted.format, quality: wanted.quality });
      await this.blobs.put(formatKey(id, format), encoded.bytes, wanted.contentType);
    }
  }

  async get(principal: Principal, id: string): Promise<VoiceGeneration> {
    const g = await this.storage.voiceGenerations.findById(id);
    if (!g || g.user_id !== principal.user_id) throw notFound('Generation');
    return g;
  }

  async list(principal: Principal, page: { limit: number; offset: number }, filter: { search?: string } = {}) {
    return this.storage.voiceGenerations.listByUser(principal.user_id, page, filter);
  }

  /**
   * Deletes the record and every audio blob. A generation still `rendering` (past a 202, a stream still
   * running, a free retake being made) is 409 `generation_not_ready`: its render would write audio after the
   * delete. One left `rendering` for over {@link STALE_RENDER_MS} (its process died) may be deleted.
   */
  async delete(principal: Principal, id: string): Promise<void> {
    const g = await this.get(principal, id);
    if (g.status === 'rendering' && this.clock.now().getTime() - Date.parse(g.updated_at) < STALE_RENDER_MS) {
      throw conflict('This generation is still rendering; delete it once it is ready or failed', { reason: 'generation_not_ready', generation_id: id });
    }
    // The record first: a download encoding a format meanwhile checks it after writing, and removes
    // what it wrote when the record is gone (audioOf), so no file outlives the generation.
    await this.storage.voiceGenerations.delete(id);
    await this.blobs.deletePrefix(generationPrefix(id));
  }

  /**
   * The generation's audio in `format` (its own by default): stored (read as the consumer pulls it), or
   * encoded from the master WAV once (then in memory: a generation is minutes of speech at most).
   */
  async audioOf(principal: Principal, id: string, format?: string): Promise<{ body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>; size: number; contentType: string; fileName: string; generation: VoiceGeneration }> {
    const g = await this.get(principal, id);
    if (g.audio_deleted_at) {
      throw new FormloomError('NOT_FOUND', 'The audio of this generation was deleted at the end of its retention (save: true keeps it)', { reason: 'audio_expired' });
    }
    const wanted = this.audio.outputSpec({ format: format ?? g.format, quality: g.quality });
    const fileName = `${g.id}.${wanted.extension}`;
    const hasAudio = g.status === 'ready' || g.status === 'partial';
    const stored = hasAudio ? await openBlobStream(this.blobs, formatKey(id, wanted.format)) : null;
    if (stored) return { body: stored.body, size: stored.size, contentType: wanted.contentType, fileName, generation: g };
    const master = hasAudio ? await this.blobs.get(masterKey(id)) : null;
    if (!master) throw notFound('Audio of this generation');
    const encoded = await this.audio.encodeToBuffer([pcmOfWav(master.data)], { format: wanted.format, quality: wanted.quality });
    const failed = await this.blobs.put(formatKey(id, wanted.format), encoded.bytes, wanted.contentType).then(() => null, (e: unknown) => e);
    // Deleted while this was encoded: no file of it may stay behind, and the answer is its 404
    // (docs/decisions.md "Races with a delete").
    if (!(await this.storage.voiceGenerations.findById(id))) {
      await this.discardAudio(id);
      throw notFound('Generation');
    }
    if (failed) throw failed;
    return { body: [encoded.bytes], size: encoded.bytes.byteLength, contentType: wanted.contentType, fileName, generation: g };
  }

  /** A new generation record, `rendering`, charged `p.credits`. */
  newGeneration(principal: Principal, id: string, p: PreparedSpeech, body: Pick<VoiceRequest, 'title' | 'save'>, source: 'api' | 'stream' = 'api'): VoiceGeneration {
    return renderingGeneration(principal, id, p, body, this.clock.now(), { mode: 'speak', source, text: p.text, request_hash: this.requestHashOf(p) });
  }

  /** What identifies `p` for `reuse` (docs/voice.md, "Reuse and retention"). */
  requestHashOf(p: PreparedSpeech): string {
    const language = p.language ? languageName(p.language) : p.voice.language;
    return requestHash({ text: p.text, voiceId: p.voice.id, language, quality: p.quality, speed: p.speed, format: p.output.format });
  }

  private now() {
    return this.clock.now().toISOString();
  }

  private fail(e: unknown, estimated: number): never {
    if (e instanceof FormloomError) throw new VoiceFailure(e, estimated);
    throw e;
  }
}

/** What both kinds of request (speak, script) have priced when their generation is recorded. */
type PricedRequest = Pick<PreparedSpeech, 'voice' | 'speed' | 'language' | 'quality' | 'output' | 'characters' | 'credits'>;

/** A new generation record of either mode, `rendering`, charged `p.credits`; `own` holds what the mode decides. */
export function renderingGeneration(
  principal: Principal,
  id: string,
  p: PricedRequest,
  body: Pick<VoiceRequest, 'title' | 'save'>,
  now: Date,
  own: Pick<VoiceGeneration, 'mode' | 'source' | 'text' | 'request_hash' | 'lines'>,
): VoiceGeneration {
  return {
    id,
    user_id: principal.user_id,
    key_id: principal.key_id,
    status: 'rendering',
    mode: own.mode,
    source: own.source,
    voice_id: p.voice.id,
    voice_name: p.voice.name,
    language: p.language ? languageName(p.language) : p.voice.language,
    text: own.text,
    speed: p.speed,
    quality: p.quality,
    format: p.output.format,
    characters: p.characters,
    credits_estimated: p.credits,
    credits_charged: p.credits,
    sample_rate: null,
    duration_seconds: null,
    title: body.title ?? null,
    save: body.save ?? false,
    retained_until: body.save ? null : new Date(now.getTime() + RETENTION_MS).toISOString(),
    error: null,
    ...(own.lines ? { lines: own.lines } : {}),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    request_hash: own.request_hash,
    retake_of: null,
    retakes_used: 0,
    audio_deleted_at: null,
  };
}
