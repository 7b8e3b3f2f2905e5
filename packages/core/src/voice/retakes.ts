import { inject, injectable } from 'tsyringe';
import { badRequest, conflict, FormloomError, notFound } from '../errors';
import type { Principal } from '../domain/types';
import type { IdGenerator } from '../ports/id-generator';
import type { Logger } from '../logger';
import type { Storage } from '../ports/storage';
import type { GenerationLine, VoiceGeneration } from '../ports/storage/voice-generations';
import { TOKENS } from '../tokens';
import { monthStart } from './billing';
import { RETENTION_MS } from './reuse';
import type { VoiceRequest } from './schemas';
import { engineFailure, type PreparedSpeech, type StartedSpeech, VoiceFailure, VoiceService } from './voice-service';
import type { PreparedScript } from './script/prepare-script';
import { type StartedScript, VoiceScriptService } from './script/script-service';

/** Retakes of speak and script generations (docs/voice.md, "Retakes"): free twice within 24 hours, within a quarter of the month's billed characters. */
export const FREE_RETAKES = 2;
export const RETAKE_WINDOW_MS = 24 * 60 * 60 * 1000;
export const FREE_RETAKE_SHARE = 0.25;
/** The only fields a retake request may carry besides `retake_of`. */
const RETAKE_FIELDS = new Set(['mode', 'format', 'max_credits', 'save', 'retake_of']);

/**
 * Whether a clip has a take to retake: `ready`, or `rendering` again because a free retake is being made of it
 * (it keeps its `sample_rate` from the first take; a first take still rendering has none).
 */
const hasTake = (g: VoiceGeneration) => g.status === 'ready' || (g.status === 'rendering' && g.sample_rate !== null);

/** Free retakes left on a clip (speak or script) by its own count and age (the key's monthly share may still make one charged). */
export function retakesRemaining(g: VoiceGeneration, now: Date): number {
  if (!hasTake(g) || now.getTime() - Date.parse(g.created_at) >= RETAKE_WINDOW_MS) return 0;
  return Math.max(0, FREE_RETAKES - (g.retakes_used ?? 0));
}

/** What a retake makes again: a speak clip's words, or a script's lines. */
export type RetakeTake = { mode: 'speak'; p: PreparedSpeech } | { mode: 'script'; p: PreparedScript };

/** A retake about to be made: free (same generation, claimed) or charged (a new generation). */
export type RetakeStart =
  | { kind: 'free'; generation: VoiceGeneration; take: RetakeTake; claimId: string; retakesUsed: number }
  | { kind: 'charged'; started: StartedSpeech }
  | { kind: 'charged_script'; started: StartedScript };

/** What a take made: the encoded audio and, for a script, each line's place in it. */
interface MadeTake {
  main: { bytes: Uint8Array; spec: { sampleRate: number }; durationMs: number };
  master: { bytes: Uint8Array };
  lines?: GenerationLine[];
}

@injectable()
export class VoiceRetakes {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(VoiceService) private readonly voice: VoiceService,
    @inject(VoiceScriptService) private readonly scripts: VoiceScriptService,
  ) {}

  /** The generation `body.retake_of` names, with its words (or lines) priced again in the requested format. */
  async load(principal: Principal, body: VoiceRequest): Promise<{ original: VoiceGeneration; take: RetakeTake }> {
    const extra = Object.keys(body).find((k) => !RETAKE_FIELDS.has(k));
    if (extra) {
      throw badRequest(`${extra}: a retake keeps the words, voices, language, quality and speed; only mode, format, max_credits and save may accompany retake_of`, { field: extra, reason: 'not_with_retake' });
    }
    const original = await this.storage.voiceGenerations.findById(body.retake_of!);
    if (!original || original.user_id !== principal.user_id) {
      throw new FormloomError('NOT_FOUND', `retake_of: no generation ${body.retake_of}`, { field: 'retake_of', reason: 'generation_not_found' });
    }
    if (body.mode === 'script' && original.mode !== 'script') {
      throw badRequest('mode: this generation is a speak clip; retake it with mode speak', { field: 'mode', reason: 'not_with_retake' });
    }
    // A clip whose first take is still rendering cannot be retaken yet; one being retaken (free) keeps its take.
    if (original.status === 'rendering' && !hasTake(original)) throw conflict('This generation is still rendering; retake it once it is ready', { reason: 'generation_not_ready' });
    const format = body.format ?? original.format;
    if (original.mode === 'script') return { original, take: { mode: 'script', p: await this.scripts.prepareRetake(original, format) } };
    const found = await this.voice.catalog.find(original.voice_id);
    const language = found && found.voice.language !== original.language ? original.language : undefined;
    const request: VoiceRequest = { mode: 'speak', text: original.text, voice: original.voice_id, quality: original.quality as VoiceRequest['quality'], speed: original.speed, ...(language ? { language } : {}) };
    return { original, take: { mode: 'speak', p: await this.voice.prepare(request, format) } };
  }

  /** Whether a retake would be free now (nothing is claimed): for estimates. */
  async wouldBeFree(principal: Principal, original: VoiceGeneration, characters: number): Promise<boolean> {
    const now = this.voice.clock.now();
    if (retakesRemaining(original, now) === 0) return false;
    if ((await this.storage.voiceGenerations.freeRetakes(original.id)) >= FREE_RETAKES) return false;
    const usage = await this.storage.voiceGenerations.retakeUsage(principal.key_id, principal.user_id, monthStart(now));
    return usage.free_retake_characters + characters <= usage.billed_characters * FREE_RETAKE_SHARE;
  }

  /** Claims a free retake when the rules allow one, else charges a new generation that names the original. */
  async start(principal: Principal, body: VoiceRequest): Promise<RetakeStart> {
    const { original, take } = await this.load(principal, body);
    const { p } = take;
    const now = this.voice.clock.now();
    if (retakesRemaining(original, now) > 0) {
      await this.voice.billing.assertEnabled(principal).catch((e) => rethrow(e, p.credits));
      const claimId = this.ids.id('rtk');
      const claim = await this.storage.voiceGenerations.claimFreeRetake({
        id: claimId,
        generation_id: original.id,
        key_id: principal.key_id,
        user_id: principal.user_id,
        characters: p.characters,
        created_at: now.toISOString(),
        since: monthStart(now),
        max_per_generation: FREE_RETAKES,
        billed_share: FREE_RETAKE_SHARE,
      });
      if (claim.ok) {
        await this.storage.voiceGenerations.update(original.id, { status: 'rendering', updated_at: now.toISOString() });
        return { kind: 'free', generation: { ...original, status: 'rendering' }, take, claimId, retakesUsed: claim.retakes_used };
      }
    }
    const request: VoiceRequest = { mode: take.mode, max_credits: body.max_credits, save: body.save, title: original.title ?? undefined };
    if (take.mode === 'script') return { kind: 'charged_script', started: await this.scripts.begin(principal, request, { prepared: take.p, retakeOf: original.id }) };
    return { kind: 'charged', started: await this.voice.begin(principal, request, { prepared: take.p, retakeOf: original.id }) };
  }

  /** Makes a take's audio; a script take with a failed line counts as failed (the clip keeps its whole take). */
  private async make(take: RetakeTake, id: string): Promise<MadeTake> {
    if (take.mode === 'speak') return this.voice.synthesizeAudio(take.p);
    const made = await this.scripts.synthesizeTake(take.p, id);
    if (made.rendered.failedLines > 0) throw new Error(`${made.rendered.failedLines} script line(s) failed`);
    return { main: made.main, master: made.master, lines: made.rendered.lines };
  }

  /**
   * Makes a free retake's audio and puts it in place of the clip's (same `gen_` id). A failure keeps the old
   * audio, gives the retake back, and is answered as an error (nothing was charged).
   */
  async renderFree(free: Extract<RetakeStart, { kind: 'free' }>, save: boolean | undefined): Promise<VoiceGeneration> {
    const { generation: g, take } = free;
    const { p } = take;
    const now = () => this.voice.clock.now();
    let audio: MadeTake;
    try {
      audio = await this.make(take, g.id);
    } catch (e) {
      this.logger.error('voice retake failed', { generation_id: g.id, error: String(e) });
      await this.storage.voiceGenerations.releaseFreeRetake(free.claimId);
      await this.storage.voiceGenerations.update(g.id, { status: 'ready', updated_at: now().toISOString() });
      throw retakeFailure(e, g.id);
    }
    // Every stored format was made from the old take: each is replaced by the new take's.
    const failed = await this.voice.replaceAudio(g.id, p, audio).then(() => null, (e: unknown) => e);
    // The clip deleted while it was retaken: its 404, and none of the new files stay (docs/decisions.md
    // "Races with a delete").
    const gone = async () => {
      await this.voice.discardAudio(g.id);
      return notFound('Generation');
    };
    if (!(await this.storage.voiceGenerations.findById(g.id))) throw await gone();
    if (failed) throw failed;
    const at = now();
    const patch = {
      status: 'ready' as const,
      format: p.output.format,
      sample_rate: audio.main.spec.sampleRate,
      duration_seconds: Math.round(audio.main.durationMs) / 1000,
      retakes_used: free.retakesUsed,
      ...(audio.lines ? { lines: audio.lines } : {}),
      // A retake may change the format: later identical requests must find the clip by what it now holds.
      request_hash: take.mode === 'script' ? this.scripts.requestHashOf(take.p) : this.voice.requestHashOf(take.p),
      updated_at: at.toISOString(),
    };
    if (!(await this.storage.voiceGenerations.update(g.id, patch))) throw await gone();
    const kept = await this.storage.voiceGenerations.retain(g.id, save ? null : new Date(at.getTime() + RETENTION_MS).toISOString(), at.toISOString());
    return kept ?? { ...g, ...patch };
  }
}

/** A failed free retake: 503 `WARMING_UP` while an engine starts, else 500 `generation_failed`; 0 charged either way. */
function retakeFailure(e: unknown, id: string): VoiceFailure {
  const failure = engineFailure(e, id, 0);
  if (failure.error.code !== 'INTERNAL_ERROR') return failure;
  return new VoiceFailure(new FormloomError('INTERNAL_ERROR', 'The retake failed; the clip keeps its audio and nothing was charged', { reason: 'generation_failed', generation_id: id }), 0, id);
}

function rethrow(e: unknown, estimated: number): never {
  if (e instanceof FormloomError) throw new VoiceFailure(e, estimated);
  throw e;
}
