import { h } from './dom.js';
import type { PublicApi } from './api.js';
import { proofPayload, solve } from './proof-of-work.js';

/**
 * The form's `spam_protection` on the page (docs/respondents.md "Spam protection"): a honeypot field
 * (off-screen, out of the tab order, hidden from assistive technology: people never fill it, form-filling
 * bots do) and a proof of work fetched and solved in the background as soon as the form shows, so the
 * respondent never waits for it. A proof is spent by the submission that carries it; the next one (a retake,
 * a retry) gets a fresh one.
 */
export class SpamCheck {
  /** The honeypot's wrapper, for the page to place; null when the form has none. */
  readonly trap: HTMLElement | null;
  private readonly input: HTMLInputElement | null;
  private readonly pow: boolean;
  private proof: Promise<string | null> | null = null;

  constructor(
    private readonly api: PublicApi,
    private readonly slug: string,
    settings: unknown,
  ) {
    const s = (settings ?? {}) as { honeypot?: boolean; proof_of_work?: boolean };
    this.pow = s.proof_of_work === true;
    this.input = s.honeypot === true ? h('input', { type: 'text', name: 'website', tabindex: '-1', autocomplete: 'off' }) : null;
    this.trap = this.input ? h('div', { class: 'fl-trap', 'aria-hidden': 'true' }, h('label', {}, 'Website', this.input)) : null;
    if (this.pow) this.refresh();
  }

  get active(): boolean {
    return this.pow || !!this.input;
  }

  /** Starts on a new challenge (the page also calls this after a refusal). */
  refresh(): void {
    if (!this.pow) return;
    // Marks for hosts' measurements and bench/renderer.js: how long the respondent's device took.
    performance.mark('formloom:pow-start');
    this.proof = this.api
      .challenge(this.slug)
      .then(async (c) => {
        const solution = await solve(c);
        performance.mark('formloom:pow-solved');
        return proofPayload(c, solution);
      })
      .catch(() => null);
  }

  /** The body's `spam_check` for the next new response (waits for the proof when still solving). */
  async fields(): Promise<{ spam_check?: { honeypot?: string; proof?: string } }> {
    if (!this.active) return {};
    const check: { honeypot?: string; proof?: string } = {};
    if (this.input) check.honeypot = this.input.value;
    if (this.pow) {
      if (!this.proof) this.refresh();
      const proof = await this.proof;
      // Spent by this submission: the next one needs its own.
      this.proof = null;
      if (proof) check.proof = proof;
    }
    return { spam_check: check };
  }
}
