import { inject, injectable } from 'tsyringe';
import { FormloomError } from '../errors';
import type { FormloomConfig } from '../config';
import type { Principal } from '../domain/types';
import type { Storage } from '../ports/storage';
import type { VoiceGeneration } from '../ports/storage/voice-generations';
import { TOKENS } from '../tokens';
import { secondsEstimated } from './pricing';
import { RETENTION_MS, REUSE_WINDOW_MS } from './reuse';
import { VoiceRetakes } from './retakes';
import type { VoiceRequest } from './schemas';
import { VoiceFailure, VoiceService } from './voice-service';
import { VoiceScriptService } from './script/script-service';
import { isScriptBody } from './script/script-text';

/** How a `POST /voice` generation ended, for its answer. */
export interface GenerationOutcome {
  generation: VoiceGeneration;
  /** Balance after the request. */
  balance: number;
  /** Credits this request took (0 for a reused clip and a free retake). */
  charged: number;
  /** The audio of an identical earlier request (docs/voice.md, "Reuse and retention"). */
  reused?: boolean;
  /** Not ready within the sync budget: answered 202 with `Location`, finished in the background. */
  rendering?: boolean;
}

/**
 * `POST /voice` speak and script requests around the `VoiceService` and the `VoiceScriptService`: `reuse`
 * of an identical request, retakes (speak only), and the sync budget after which the answer is 202 with
 * `Location` while the audio is finished in the background (docs/voice.md).
 */
@injectable()
export class VoiceGenerationFlow {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(VoiceService) private readonly voice: VoiceService,
    @inject(VoiceRetakes) private readonly retakes: VoiceRetakes,
    @inject(VoiceScriptService) private readonly scripts: VoiceScriptService,
  ) {}

  /** A speak or script request (by `mode`), or a retake of either (`retake_of`). */
  generate(principal: Principal, body: VoiceRequest, opts: { formatOverride?: string } = {}): Promise<GenerationOutcome> {
    if (body.retake_of !== undefined) return this.retake(principal, body);
    return body.mode === 'script' ? this.script(principal, body, opts) : this.speak(principal, body, opts);
  }

  async speak(principal: Principal, body: VoiceRequest, opts: { formatOverride?: string } = {}): Promise<GenerationOutcome> {
    const p = await this.voice.prepare(body, opts.formatOverride);
    if (body.reuse !== false) {
      const reused = await this.reuse(principal, this.voice.requestHashOf(p), p.credits, body);
      if (reused) return reused;
    }
    const started = await this.voice.begin(principal, body, { prepared: p });
    const made = await this.withinBudget(this.voice.render(principal, started));
    if (!made) return { generation: started.generation, balance: started.balance, charged: p.credits, rendering: true };
    return { generation: made.generation, balance: made.balance, charged: made.generation.credits_charged };
  }

  /** A script. */
  async script(principal: Principal, body: VoiceRequest, opts: { formatOverride?: string } = {}): Promise<GenerationOutcome> {
    const p = await this.scripts.prepare(body, opts.formatOverride);
    if (body.reuse !== false) {
      const reused = await this.reuse(principal, this.scripts.requestHashOf(p), p.credits, body);
      if (reused) return reused;
    }
    const started = await this.scripts.begin(principal, body, { prepared: p });
    const made = await this.withinBudget(this.scripts.render(principal, started));
    if (!made) return { generation: started.generation, balance: started.balance, charged: p.credits, rendering: true };
    return { generation: made.generation, balance: made.balance, charged: made.generation.credits_charged };
  }

  /** An estimate; with `retake_of`, `free` says whether the retake would cost nothing; a reusable request costs 0 (`free: true`). */
  async estimate(principal: Principal, body: VoiceRequest) {
    if (body.retake_of !== undefined) return this.retakeEstimate(principal, body);
    if (isScriptBody(body)) {
      const quote = await this.scripts.estimate(principal, body);
      if (body.reuse === false || !(await this.findReusable(principal, this.scripts.requestHashOf(await this.scripts.prepare(body))))) return quote;
      return { ...quote, credits: 0, enough: true, free: true };
    }
    const quote = await this.voice.estimate(principal, body);
    if (body.reuse === false || !(await this.findReusable(principal, this.voice.requestHashOf(await this.voice.prepare(body))))) return quote;
    return { ...quote, credits: 0, enough: true, free: true };
  }

  /** The estimate of a retake: `free`, or the cost of a new generation. */
  private async retakeEstimate(principal: Principal, body: VoiceRequest) {
    const { original, take } = await this.retakes.load(principal, { ...body, mode: 'speak' });
    const { p } = take;
    const free = await this.retakes.wouldBeFree(principal, original, p.characters);
    const credits = free ? 0 : p.credits;
    const { balance, enough } = await this.voice.billing.quote(principal, credits);
    return {
      object: 'voice.estimate',
      characters: p.characters,
      credits,
      seconds_estimated: take.mode === 'script' ? take.p.secondsEstimated : secondsEstimated(p.characters, p.speed),
      balance,
      enough,
      free,
    };
  }

  private findReusable(principal: Principal, requestHash: string) {
    const now = this.voice.clock.now();
    const since = new Date(now.getTime() - REUSE_WINDOW_MS).toISOString();
    return this.storage.voiceGenerations.findReusable(principal.user_id, requestHash, since, now.toISOString());
  }

  /** The newest identical generation of the account, its audio kept 30 more days (or saved); null if none. */
  private async reuse(principal: Principal, requestHash: string, credits: number, body: VoiceRequest): Promise<GenerationOutcome | null> {
    const found = await this.findReusable(principal, requestHash);
    if (!found) return null;
    await this.voice.billing.assertEnabled(principal).catch((e) => rethrow(e, credits));
    const now = this.voice.clock.now();
    const kept = await this.storage.voiceGenerations.retain(found.id, body.save ? null : new Date(now.getTime() + RETENTION_MS).toISOString(), now.toISOString());
    if (!kept) return null; // swept meanwhile: generate anew
    return { generation: kept, balance: await this.voice.billing.balance(principal.user_id), charged: 0, reused: true };
  }

  private async retake(principal: Principal, body: VoiceRequest): Promise<GenerationOutcome> {
    const start = await this.retakes.start(principal, body);
    if (start.kind === 'charged' || start.kind === 'charged_script') {
      const { started } = start;
      const render = start.kind === 'charged' ? this.voice.render(principal, start.started) : this.scripts.render(principal, start.started);
      const made = await this.withinBudget<{ generation: VoiceGeneration; balance: number }>(render);
      if (!made) return { generation: started.generation, balance: started.balance, charged: started.p.credits, rendering: true };
      return { generation: made.generation, balance: made.balance, charged: made.generation.credits_charged };
    }
    const made = await this.withinBudget(this.retakes.renderFree(start, body.save));
    const balance = await this.voice.billing.balance(principal.user_id);
    if (!made) return { generation: start.generation, balance, charged: 0, rendering: true };
    return { generation: made, balance, charged: 0 };
  }

  /**
   * `work`'s result when it ends within `voice.syncBudgetMs`, else null (it goes on: a render finishes,
   * or fails and credits itself back, on its own). A failure within the budget is thrown.
   */
  private async withinBudget<T>(work: Promise<T>): Promise<T | null> {
    work.catch(() => undefined); // a failure after the budget was answered 202 is handled by the work itself
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), this.config.voice.syncBudgetMs);
      timer.unref?.();
    });
    try {
      return await Promise.race([work, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function rethrow(e: unknown, estimated: number): never {
  if (e instanceof FormloomError) throw new VoiceFailure(e, estimated);
  throw e;
}
