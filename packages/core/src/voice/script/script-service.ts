import { inject, injectable } from 'tsyringe';
import { conflict, FormloomError } from '../../errors';
import type { FormloomConfig } from '../../config';
import type { Principal } from '../../domain/types';
import type { AudioEncoding } from '../../ports/audio-encoding';
import type { BlobStore } from '../../ports/blob-store';
import type { Clock } from '../../ports/clock';
import type { IdGenerator } from '../../ports/id-generator';
import type { Logger } from '../../logger';
import type { Storage } from '../../ports/storage';
import type { RateLimitRepository } from '../../ports/storage/rate-limits';
import type { VoiceGeneration } from '../../ports/storage/voice-generations';
import { TOKENS } from '../../tokens';
import { languageName } from '../catalog';
import { VoiceBilling } from '../billing';
import { creditsFor } from '../pricing';
import { scriptRequestHash } from '../reuse';
import type { VoiceRequest } from '../schemas';
import { encodeBoth, formatKey, masterKey } from '../synthesis';
import { renderingGeneration, VoiceFailure, VoiceService } from '../voice-service';
import { type PreparedScript, prepareScript, prepareScriptRetake } from './prepare-script';
import { renderScript } from './script-render';

/** A charged script whose audio is still to be made. */
export interface StartedScript {
  generation: VoiceGeneration;
  p: PreparedScript;
  balance: number;
  /** Gives back the helpers' daily allowances (the script failed). */
  release: () => Promise<void>;
}

/**
 * Script generations (`mode: script`, docs/voice.md "Scripts"): several voices in one file, pauses free.
 * Charged once at the start for every spoken character; lines that fail are left out and their share
 * credited back (`partial`); when every line fails, everything is credited back and the answer is an error.
 */
@injectable()
export class VoiceScriptService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Audio) private readonly audio: AudioEncoding,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(VoiceService) private readonly voice: VoiceService,
  ) {}

  private get billing(): VoiceBilling {
    return this.voice.billing;
  }

  prepare(body: VoiceRequest, formatOverride?: string): Promise<PreparedScript> {
    return prepareScript(this.voice.catalog, this.audio, body, formatOverride);
  }

  /** A retake of script generation `original` in `format` (its lines, voices, language, quality and speed). */
  prepareRetake(original: VoiceGeneration, format: string): Promise<PreparedScript> {
    return prepareScriptRetake(this.voice.catalog, this.audio, original, format);
  }

  /** The exact cost of a script; free, makes nothing, and counts against no allowance. */
  async estimate(principal: Principal, body: VoiceRequest) {
    const p = await this.prepare(body);
    const { balance, enough } = await this.billing.quote(principal, p.credits);
    return {
      object: 'voice.estimate',
      characters: p.characters,
      credits: p.credits,
      seconds_estimated: p.secondsEstimated,
      balance,
      enough,
    };
  }

  /** Checks, charges, renders, encodes and stores a script; credits back failed lines. */
  async generate(principal: Principal, body: VoiceRequest, opts: { formatOverride?: string } = {}) {
    return this.render(principal, await this.begin(principal, body, opts));
  }

  /** The first half of `generate`: checks, counts the helpers' allowances, charges and records the script as `rendering`. */
  async begin(principal: Principal, body: VoiceRequest, opts: { formatOverride?: string; prepared?: PreparedScript; retakeOf?: string } = {}): Promise<StartedScript> {
    const p = opts.prepared ?? (await this.prepare(body, opts.formatOverride));
    if (body.max_credits !== undefined && p.credits > body.max_credits) {
      throw new VoiceFailure(
        conflict(`This request costs ${p.credits} credits, over max_credits ${body.max_credits}`, { reason: 'max_credits_exceeded', credits_estimated: p.credits, max_credits: body.max_credits }),
        p.credits,
      );
    }
    await this.billing.assertEnabled(principal).catch((e) => rethrow(e, p.credits));
    const release = await this.takeAllowances(principal, p).catch((e) => rethrow(e, p.credits));
    const id = this.ids.id('gen');
    const balance = await this.billing.charge(principal, id, p.credits).catch(async (e) => {
      await release();
      return rethrow(e, p.credits);
    });
    const generation = { ...this.newGeneration(principal, id, p, body), retake_of: opts.retakeOf ?? null };
    await this.storage.voiceGenerations.insert(generation);
    return { generation, p, balance, release };
  }

  /** What identifies a script for `reuse`: every line (speaker, voice, words or pause), language, quality, speed, format. */
  requestHashOf(p: PreparedScript): string {
    const lines = p.lines.map(({ line }) => [line.speaker, line.voice_id, line.text, line.pause_ms] as const);
    return scriptRequestHash({ lines, language: p.language ? languageName(p.language) : p.voice.language, quality: p.quality, speed: p.speed, format: p.output.format });
  }

  /** The second half of `generate`: renders, encodes and stores; failed lines (or all of them) are credited back. */
  async render(principal: Principal, started: StartedScript): Promise<{ generation: VoiceGeneration; balance: number }> {
    const { generation, p, release } = started;
    let balance = started.balance;
    const id = generation.id;
    try {
      const { rendered, main, master } = await this.synthesizeTake(p, id);
      await this.blobs.put(masterKey(id), master.bytes, 'audio/wav');
      await this.blobs.put(formatKey(id, p.output.format), main.bytes, p.output.contentType);
      const chargedAfter = creditsFor(rendered.spokenCharacters);
      const patch = {
        status: rendered.failedLines ? ('partial' as const) : ('ready' as const),
        lines: rendered.lines,
        characters: rendered.spokenCharacters,
        credits_charged: chargedAfter,
        sample_rate: main.spec.sampleRate,
        duration_seconds: Math.round(main.durationMs) / 1000,
        updated_at: this.now(),
      };
      // One transaction: a client that sees the generation `partial` also sees its credit-back.
      const credited = await this.storage.transaction(async (tx) => {
        await tx.voiceGenerations.update(id, patch);
        if (chargedAfter >= p.credits) return null;
        // The failed lines' share, rounded once over what was made: the ledger's one credit-back of this generation.
        const back = { id: this.ids.id('cre'), created_at: this.now(), amount: p.credits - chargedAfter };
        return tx.credits.creditBack(id, back);
      });
      if (chargedAfter < p.credits) balance = credited ?? (await this.billing.balance(principal.user_id));
      return { generation: { ...generation, ...patch }, balance };
    } catch (e) {
      this.logger.error('voice script generation failed', { generation_id: id, error: String(e) });
      await this.billing.creditBack(principal.user_id, id);
      await release();
      const lines = generation.lines!.map((l) => ({ ...l, status: 'failed' as const, start_ms: null, end_ms: null }));
      await this.storage.voiceGenerations.update(id, { status: 'failed', credits_charged: 0, lines, error: 'engine_failed', updated_at: this.now() });
      throw new VoiceFailure(new FormloomError('INTERNAL_ERROR', 'Speech generation failed; nothing was charged', { reason: 'generation_failed', generation_id: id }), p.credits, id);
    }
  }

  /**
   * Renders every line of `p` and encodes the result (the requested format and the master WAV); lines that
   * fail are left out. Throws when every line failed. Stores nothing.
   */
  async synthesizeTake(p: PreparedScript, id: string) {
    const rendered = await renderScript(p.lines, {
      language: p.language,
      speed: p.speed,
      onLineError: (index, error) => this.logger.error('voice script line failed', { generation_id: id, line: index, error: String(error) }),
    });
    if (rendered.spokenCharacters === 0) throw new Error('every line failed');
    const { main, master } = await encodeBoth(this.audio, rendered.pcm, p.output.format, p.quality);
    return { rendered, main, master };
  }

  /** Counts `auto_convert` (when asked) and `auto_cast` (when it picked a voice) against the account's daily allowances. */
  private async takeAllowances(principal: Principal, p: PreparedScript): Promise<AllowanceRelease> {
    const helpers: Array<{ helper: ScriptHelper; limit: number }> = [];
    if (p.used.auto_convert) helpers.push({ helper: 'auto_convert', limit: this.config.voice.autoConvertPerDay });
    if (p.used.auto_cast) helpers.push({ helper: 'auto_cast', limit: this.config.voice.autoCastPerDay });
    if (!helpers.length) return async () => {};
    return takeAllowances(this.storage.rateLimits, this.clock, principal.user_id, helpers);
  }

  private newGeneration(principal: Principal, id: string, p: PreparedScript, body: VoiceRequest): VoiceGeneration {
    const spoken = p.lines.filter((l) => l.line.text !== null);
    return renderingGeneration(principal, id, p, body, this.clock.now(), {
      mode: 'script',
      source: 'api',
      text: spoken.map((l) => (l.line.speaker ? `[${l.line.speaker}] ${l.line.text}` : l.line.text)).join('\n'),
      request_hash: this.requestHashOf(p),
      lines: p.lines.map((l) => l.line),
    });
  }

  private now() {
    return this.clock.now().toISOString();
  }
}

function rethrow(e: unknown, estimated: number): never {
  if (e instanceof FormloomError) throw new VoiceFailure(e, estimated);
  throw e;
}

/** The free script helpers with a daily allowance per account (docs/voice.md, "Scripts"). */
type ScriptHelper = 'auto_convert' | 'auto_cast';

/** The first instant of the next UTC day: daily allowances reset there. */
const nextUtcMidnight = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));

/** Takes back the uses counted for a request that then failed. */
type AllowanceRelease = () => Promise<void>;

/**
 * Counts one use of each helper for the account, per UTC day, in the shared rate-limit counters (so every
 * instance on one database sees the same count). Over the allowance: 429 `RATE_LIMITED` with `reason`
 * `<helper>_limit`, `limit`, `resets_at` and `retry_after` (seconds), and nothing counted.
 */
async function takeAllowances(
  counters: RateLimitRepository,
  clock: Clock,
  userId: string,
  helpers: ReadonlyArray<{ helper: ScriptHelper; limit: number }>,
): Promise<AllowanceRelease> {
  const now = clock.now();
  const resetsAt = nextUtcMidnight(now).toISOString();
  const taken: string[] = [];
  const release = async () => {
    const at = clock.now().toISOString();
    for (const key of taken.splice(0)) await counters.release(key, at);
  };
  for (const { helper, limit } of helpers) {
    const key = `voice:${helper}:${userId}`;
    const counter = await counters.hit(key, now.toISOString(), resetsAt);
    taken.push(key);
    if (counter.hits > limit) {
      await release();
      const retryAfter = Math.max(1, Math.ceil((Date.parse(counter.resets_at) - now.getTime()) / 1000));
      throw new FormloomError('RATE_LIMITED', `${helper} is free up to ${limit} times a day per account; the allowance resets at ${counter.resets_at}`, {
        reason: `${helper}_limit`,
        field: helper,
        limit,
        resets_at: counter.resets_at,
        retry_after: retryAfter,
      });
    }
  }
  return release;
}
