import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError, type Api } from '../../data/client';
import type { Question } from '../../data/forms';
import { createSession, NOTIFY_EVENTS, type CreateSessionBody } from '../../data/signing';
import { signingStyles } from './signing-styles';

interface Slot {
  slot_number: number;
  label: string;
}

/** The session's slots as the API makes them: every contract's `signer_slots`, first label wins; one "Signer" by default. */
export function slotsOf(contracts: readonly Question[]): Slot[] {
  const slots = new Map<number, string>();
  for (const q of contracts) for (const s of (q.properties.signer_slots as Slot[] | undefined) ?? []) if (!slots.has(s.slot_number)) slots.set(s.slot_number, s.label);
  if (slots.size === 0) slots.set(1, 'Signer');
  return [...slots].sort(([a], [b]) => a - b).map(([slot_number, label]) => ({ slot_number, label }));
}

/**
 * `<fl-new-session form-id>`: the "New session" dialog of the Signing tab (docs/workspace.md, "Signing"): each
 * slot's signer, the order, expiry, password, email verification, copies, notifications and the signing email.
 * Fires `fl-session-created` (detail: the session) or, when the API refuses, `fl-session-refused` (the error).
 */
export class FlNewSession extends LitElement {
  static override styles = [
    tokens,
    controls,
    signingStyles,
    css`
      dialog { border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 1.5); padding: 0; width: min(40rem, calc(100vw - 1rem)); max-height: calc(100vh - 2rem); background: var(--_surface); color: var(--_text); }
      dialog::backdrop { background: rgb(0 0 0 / 0.45); }
      form { display: grid; gap: 0.9rem; padding: 1.25rem; }
      .actions { display: flex; gap: 0.5rem; justify-content: flex-end; flex-wrap: wrap; position: sticky; bottom: 0; background: var(--_surface); padding: 0.75rem 0 0.25rem; border-top: 1px solid var(--_border); }
      .with-hint { display: grid; gap: 0.3rem; }
      @media (max-width: 480px) { form { padding: 0.9rem 0.75rem; } }
    `,
  ];
  static override properties = { api: { attribute: false }, formId: { attribute: 'form-id' }, contracts: { attribute: false }, error: { state: true }, busy: { state: true }, sendEmails: { state: true } };
  api!: Api;
  formId = '';
  contracts: Question[] = [];
  error = '';
  busy = false;
  sendEmails = false;
  private opener: HTMLElement | null = null;

  /** Opens the dialog with a fresh form; focus returns to what had it when it closes. */
  async open() {
    this.error = '';
    this.sendEmails = false;
    await this.updateComplete;
    this.renderRoot.querySelector('form')!.reset();
    this.opener = (document.activeElement as HTMLElement | null) ?? null;
    // The button that opened it sits in a shadow root: keep the deepest focused element.
    while (this.opener?.shadowRoot?.activeElement) this.opener = this.opener.shadowRoot.activeElement as HTMLElement;
    this.renderRoot.querySelector('dialog')!.showModal();
  }

  private close() {
    this.renderRoot.querySelector('dialog')?.close();
  }

  private body(data: FormData): CreateSessionBody {
    const text = (name: string) => String(data.get(name) ?? '').trim();
    const signers = slotsOf(this.contracts)
      .map((s) => ({ slot_number: s.slot_number, first_name: text(`first_${s.slot_number}`) || null, last_name: text(`last_${s.slot_number}`) || null, email: text(`email_${s.slot_number}`) || null }))
      .filter((s) => s.first_name || s.last_name || s.email);
    const notify = text('notify_emails').split(/[\s,;]+/).filter(Boolean);
    const body: CreateSessionBody = {
      signers,
      signing_order: text('signing_order') as 'sequential' | 'any',
      expiry_days: Number(text('expiry_days') || 30),
      hide_other_signers: data.get('hide_other_signers') === 'on',
      require_email_verification: data.get('require_email_verification') === 'on',
      copy_mode: text('copy_mode') as 'ask' | 'always' | 'disabled',
      notify_emails: notify,
      notify_events: NOTIFY_EVENTS.map(([v]) => v).filter((v) => data.get(`event_${v}`) === 'on'),
      send_signing_emails: data.get('send_signing_emails') === 'on',
    };
    if (text('password')) body.password = text('password');
    if (body.send_signing_emails && text('custom_email_body')) body.custom_email_body = String(data.get('custom_email_body'));
    return body;
  }

  private async submit(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    if (!form.reportValidity()) return;
    this.busy = true;
    try {
      const session = await createSession(this.api, this.formId, this.body(new FormData(form)));
      this.close();
      this.dispatchEvent(new CustomEvent('fl-session-created', { detail: session, bubbles: true, composed: true }));
    } catch (err) {
      const status = err instanceof ApiError ? err.status : 0;
      this.error = status === 404 ? 'This form does not exist any more. It may have been deleted in another tab or by someone else.' : (err as Error).message;
      if (err instanceof ApiError) this.dispatchEvent(new CustomEvent('fl-session-refused', { detail: err, bubbles: true, composed: true }));
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('.error-text')?.focus();
    } finally {
      this.busy = false;
    }
  }

  private renderSlot(s: Slot) {
    return html`<fieldset>
      <legend>${s.label} (signer ${s.slot_number})</legend>
      <div class="grid2">
        <label class="field">First name<input name="first_${s.slot_number}" autocomplete="off" maxlength="200" /></label>
        <label class="field">Last name<input name="last_${s.slot_number}" autocomplete="off" maxlength="200" /></label>
      </div>
      <label class="field">Email<input name="email_${s.slot_number}" type="email" autocomplete="off" /></label>
    </fieldset>`;
  }

  override render() {
    const order = (this.contracts[0]?.properties.default_signing_order as string | undefined) ?? 'any';
    return html`<dialog aria-labelledby="new-h" @close=${() => this.opener?.focus()}>
      <form @submit=${(e: Event) => void this.submit(e)} novalidate>
        <h2 id="new-h">New signing session</h2>
        <p class="muted">Each signer gets their own link. Names and emails are optional: a signer may fill them in on their page.</p>
        ${slotsOf(this.contracts).map((s) => this.renderSlot(s))}
        <div class="grid2">
          <label class="field">Signing order<select name="signing_order">
            <option value="any" ?selected=${order === 'any'}>Any order</option>
            <option value="sequential" ?selected=${order === 'sequential'}>In slot order (sequential)</option></select></label>
          <label class="field">Expires after (days)<input name="expiry_days" type="number" inputmode="numeric" min="1" max="365" step="1" value="30" required /></label>
        </div>
        <div class="with-hint"><label class="field">Password (optional)<input name="password" type="text" autocomplete="off" minlength="4" maxlength="200" aria-describedby="pw-hint" /></label>
          <span id="pw-hint" class="muted hint">Signers must enter it before they can read the contract. Tell them separately; at least 4 characters.</span></div>
        <label class="check"><input type="checkbox" name="require_email_verification" />Require email verification (a code mailed to the signer)</label>
        <label class="check"><input type="checkbox" name="hide_other_signers" />Hide the other signers from each signer</label>
        <label class="field">Signed copies<select name="copy_mode">
          <option value="ask">Ask each signer</option><option value="always">Always email a copy</option><option value="disabled">Never</option></select></label>
        <fieldset>
          <legend>Notifications</legend>
          <div class="with-hint"><label class="field">Notify these addresses<input name="notify_emails" type="text" inputmode="email" autocomplete="off" placeholder="you@example.com, legal@example.com" aria-describedby="notify-hint" /></label>
            <span id="notify-hint" class="muted hint">Separated by commas; at most 20.</span></div>
          <div class="row">${NOTIFY_EVENTS.map(([v, text]) => html`<label class="check"><input type="checkbox" name="event_${v}" />${text}</label>`)}</div>
        </fieldset>
        <label class="check"><input type="checkbox" name="send_signing_emails" @change=${(e: Event) => (this.sendEmails = (e.target as HTMLInputElement).checked)} />Email each signer their link now</label>
        ${this.sendEmails
          ? html`<div class="with-hint"><label class="field">Email text (optional)<textarea name="custom_email_body" rows="5" maxlength="10000" aria-describedby="body-hint"></textarea></label>
              <span id="body-hint" class="muted hint">Without it a standard text is sent. You may use {slot_firstName}, {slot_lastName}, {slot_link} and {expiryDate}.</span></div>`
          : nothing}
        ${this.error ? html`<p class="error-text" role="alert" tabindex="-1">${this.error}</p>` : nothing}
        <div class="actions">
          <button class="btn" type="button" @click=${() => this.close()}>Cancel</button>
          <button class="btn primary" type="submit" ?disabled=${this.busy}>${this.busy ? 'Creating…' : 'Create session'}</button>
        </div>
      </form>
    </dialog>`;
  }
}
customElements.get('fl-new-session') || customElements.define('fl-new-session', FlNewSession);
