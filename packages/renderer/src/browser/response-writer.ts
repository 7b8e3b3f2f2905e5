import type { ApiError, PublicApi } from './api.js';
import type { SpamCheck } from './spam-check.js';
import * as store from './store.js';
import type { SubmittedResponse } from './types.js';

/** A random key of 128 bits, as hex (crypto.getRandomValues works on plain http pages too). */
const newKey = () => Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The partial response the page writes to: its id and the token that lets this page change it. */
export interface SavedResponse {
  id: string;
  token: string;
}

/**
 * The respondent's response on the server (docs/respondents.md): POSTed once with the form's spam checks,
 * then PATCHed with the answers so far. A payment step, a step the server runs and an incremental save all
 * need the response to exist first; this is the one place that makes it.
 */
export class ResponseWriter {
  /** The response started on this page (or resumed), null until the first save. */
  partial: SavedResponse | null = null;

  constructor(
    private readonly api: PublicApi,
    private readonly slug: string,
    private readonly spam: SpamCheck,
    /** The body of a new response: the answers, hidden fields, language and metadata (form-view.ts). */
    private readonly body: (completed: boolean) => Record<string, unknown>,
  ) {}

  /**
   * The Idempotency-Key of the completed submission being sent: kept through its retries (a lost answer sent
   * again stores nothing twice, docs/respondents.md), a new one once it was stored.
   */
  private submitKey: string | null = null;

  /** POSTs a new response with the form's spam checks; refused as spam (an expired proof), it tries once more with a fresh one. */
  async submitNew(completed: boolean): Promise<SubmittedResponse> {
    const key = completed ? (this.submitKey ??= newKey()) : undefined;
    const send = async () => this.api.submit(this.slug, { ...this.body(completed), ...(await this.spam.fields()) }, key);
    let r: SubmittedResponse;
    try {
      r = await send();
    } catch (e) {
      if ((e as ApiError).reason !== 'spam_suspected' || !this.spam.active) throw e;
      this.spam.refresh();
      r = await send();
    }
    if (completed) this.submitKey = null;
    return r;
  }

  /** Saves the answers so far: a new partial response the first time, a PATCH after; answers the response. */
  async save(answers: unknown[]): Promise<SavedResponse> {
    if (!this.partial) {
      const r = await this.submitNew(false);
      this.partial = { id: r.id, token: r.resume_token! };
    } else {
      await this.api.patch(this.slug, this.partial.id, this.partial.token, { answers });
    }
    return this.partial;
  }

  /** The saved partial response is gone or not ours any more: the next save starts a new one. */
  forget(): void {
    this.partial = null;
    store.resume.set(this.slug, null);
  }
}
