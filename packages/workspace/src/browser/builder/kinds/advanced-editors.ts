import { html, nothing } from 'lit';
import { KindEditor } from './kind-editor';
import { checkField, numberField, selectField, textField } from '../../controls/fields';
import type { Api } from '../../../data/client';
import { getCallQuote, type CallQuote } from '../../../data/calendar';
import type { Question } from '../../../data/forms';
import './calendar-connection';
import './payment-account';

/*
 * Editors of the kinds the server runs or that need a paid plan (contract, booking, payment, data source,
 * email step, composite; the Fuse's is fuse-editor.ts). The publish checks say what is still missing; the builder shows those
 * messages beside the question (docs/workspace.md, "Publishing").
 */

/** `<fl-contract-editor>`: the contract text, signer slots and signing order. */
export class FlContractEditor extends KindEditor {
  override render() {
    const p = this.props;
    const slots = Array.isArray(p.signer_slots) ? (p.signer_slots as Array<{ slot_number: number; label: string }>) : [];
    return html`${textField('Contract text', p.document, (v) => this.set('document', v), { multiline: true, rows: 6, hint: 'The document signers read and sign.' })}
      <fieldset><legend>Signers</legend>
        ${slots.map((s, i) => html`<div class="item"><label class="field">Signer ${s.slot_number}<input type="text" .value=${s.label} @input=${(e: Event) => this.set('signer_slots', slots.map((x, j) => (j === i ? { ...x, label: (e.target as HTMLInputElement).value } : x)))} /></label>
          <div class="btns"><button class="btn icon small danger" type="button" aria-label="Remove signer ${s.slot_number}" @click=${() => this.set('signer_slots', slots.filter((_x, j) => j !== i).map((x, j) => ({ ...x, slot_number: j + 1 })))}>✕</button></div></div>`)}
        <div><button class="btn small" type="button" ?disabled=${slots.length >= 20} @click=${() => this.set('signer_slots', [...slots, { slot_number: slots.length + 1, label: `Signer ${slots.length + 1}` }])}>Add a signer</button></div>
      </fieldset>
      ${selectField('Signing order', p.default_signing_order ?? 'any', [['any', 'Any order'], ['sequential', 'One after another']] as const, (v) => this.set('default_signing_order', v))}`;
  }
}
customElements.get('fl-contract-editor') || customElements.define('fl-contract-editor', FlContractEditor);

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** `<fl-booking-editor>`: the owner's calendar, opening hours, time zone, durations and the confirmation call. */
export class FlBookingEditor extends KindEditor {
  static override properties = { ...KindEditor.properties, api: { attribute: false }, formId: {}, questions: { attribute: false }, quote: { state: true } };
  api: Api | null = null;
  formId = '';
  questions: Question[] = [];
  quote: CallQuote | null = null;
  private quoted = '';

  /** The call's cost is read when the call is turned on (and again when the form or its title may have changed). */
  override updated() {
    const key = this.props.confirmation_call && this.api && this.formId ? `${this.formId}` : '';
    if (!key || key === this.quoted) return;
    this.quoted = key;
    getCallQuote(this.api!, this.formId).then((q) => (this.quote = q), () => (this.quote = null));
  }

  /** The confirmation call: the contact question whose phone is called, and what each call costs. */
  private renderCall() {
    const p = this.props;
    const phones = this.questions.filter((q) => q.type === 'contact_info' && ((q.properties?.fields as string[] | undefined) ?? ['phone']).includes('phone'));
    const q = this.quote;
    return html`${selectField('Call the phone number given in', (p.confirmation_call_question as string | undefined) ?? '',
        [['', phones.length ? 'Pick a contact question' : 'Add a contact question with a phone field'], ...phones.map((x) => [x.id, x.title || 'Contact'] as [string, string])] as const,
        (v) => this.set('confirmation_call_question', v || null))}
      ${q ? html`<p class="muted hint" role="status">${q.configured
        ? `Each call costs about ${q.credits_per_call} voice credits, from your balance (${q.balance} now)${q.enough ? '.' : ': buy credits before publishing.'} Respondents press 1 to confirm or 2 to cancel.`
        : 'This server cannot place calls yet: whoever runs it needs to set up Twilio.'}</p>` : nothing}`;
  }

  override render() {
    const p = this.props;
    const hours = Array.isArray(p.hours) ? (p.hours as Array<{ day: number; start: string; end: string }>) : [];
    const durations = Array.isArray(p.durations) ? (p.durations as number[]).join(', ') : '';
    // The connection is the owner's, not the question's: readiness reads it on the server (docs/booking.md).
    return html`<fl-calendar-connection .api=${this.api}></fl-calendar-connection>
      <fieldset><legend>Opening hours</legend>
        ${DAYS.map((d, day) => {
          const h = hours.find((x) => x.day === day);
          const put = (patch: Partial<{ start: string; end: string }> | null) =>
            this.set('hours', [...hours.filter((x) => x.day !== day), ...(patch ? [{ day, start: '09:00', end: '17:00', ...h, ...patch }] : [])].sort((a, b) => a.day - b.day));
          return html`<div class="grid2">
            <label class="check"><input type="checkbox" .checked=${!!h} @change=${(e: Event) => put((e.target as HTMLInputElement).checked ? {} : null)} />${d}</label>
            ${h ? html`<div class="row"><label class="field">Opens<input type="time" .value=${h.start} @change=${(e: Event) => put({ start: (e.target as HTMLInputElement).value })} /></label>
              <label class="field">Closes<input type="time" .value=${h.end} @change=${(e: Event) => put({ end: (e.target as HTMLInputElement).value })} /></label></div>` : nothing}
          </div>`;
        })}
      </fieldset>
      ${textField('Time zone', p.timezone, (v) => this.set('timezone', v), { placeholder: Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Paris', hint: 'Your opening hours are in this zone; respondents see times in their own.' })}
      <label class="field">Durations (minutes)
        <input type="text" inputmode="numeric" aria-describedby="dur-hint" .value=${durations} @change=${(e: Event) => {
          const list = (e.target as HTMLInputElement).value.split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0);
          this.set('durations', list.length ? list : null);
        }} /></label><span id="dur-hint" class="muted hint">Separated by commas, e.g. 15, 30</span>
      ${checkField('Confirm each booking by phone call', p.confirmation_call, (v) => this.set('confirmation_call', v || null))}
      ${p.confirmation_call ? this.renderCall() : nothing}`;
  }
}
customElements.get('fl-booking-editor') || customElements.define('fl-booking-editor', FlBookingEditor);

/**
 * `<fl-payment-editor>`: a fixed amount or a variable the logic computes, the currency, what the payer's statement
 * says, and where the money goes (with the owner's own Stripe account when it is theirs: docs/payments.md).
 */
export class FlPaymentEditor extends KindEditor {
  static override properties = { ...KindEditor.properties, api: { attribute: false } };
  api: Api | null = null;
  override render() {
    const p = this.props;
    return html`<div class="grid2">
        ${numberField('Amount', p.amount, (v) => this.set('amount', v), { min: 0.01, hint: p.amount_variable ? 'Not used: the amount comes from the variable' : undefined })}
        ${textField('Currency', p.currency, (v) => this.set('currency', v ? v.toUpperCase().slice(0, 3) : null), { placeholder: 'EUR' })}
      </div>
      ${textField('Or take the amount from a variable', p.amount_variable, (v) => this.set('amount_variable', v), { placeholder: 'total', hint: "A form variable your logic sets or adds to; the server computes it from the respondent's answers." })}
      ${textField('Description on the receipt', p.description, (v) => this.set('description', v), { placeholder: 'Booking deposit' })}
      ${selectField('Paid into', p.provider ?? 'standard', [['standard', 'The platform account (standard)'], ['connect', 'Your own account (Pro)']] as const, (v) => this.set('provider', v))}
      ${p.provider === 'connect' ? html`<fl-payment-account .api=${this.api}></fl-payment-account>` : nothing}`;
  }
}
customElements.get('fl-payment-editor') || customElements.define('fl-payment-editor', FlPaymentEditor);

/** `<fl-data-editor>`: where the data comes from. */
export class FlDataEditor extends KindEditor {
  override render() {
    return textField('Source URL', this.props.source, (v) => this.set('source', v), { type: 'url', placeholder: 'https://example.com/data.json', hint: 'Data nodes run on the server (Pro plan).' });
  }
}
customElements.get('fl-data-editor') || customElements.define('fl-data-editor', FlDataEditor);

/** `<fl-email-step-editor>`: the email sent when a respondent reaches this step. */
export class FlEmailStepEditor extends KindEditor {
  override render() {
    const p = this.props;
    return html`${textField('Recipient', p.recipient, (v) => this.set('recipient', v), { type: 'email', placeholder: 'team@example.com' })}
      ${textField('Sender name', p.sender_name, (v) => this.set('sender_name', v))}
      ${textField('Subject', p.subject, (v) => this.set('subject', v))}
      ${textField('Message', p.body, (v) => this.set('body', v), { multiline: true, rows: 5 })}`;
  }
}
customElements.get('fl-email-step-editor') || customElements.define('fl-email-step-editor', FlEmailStepEditor);

/** `<fl-composite-editor>`: the forms this step is made of. */
export class FlCompositeEditor extends KindEditor {
  static override properties = { ...KindEditor.properties, forms: { attribute: false } };
  forms: Array<{ id: string; title: string }> = [];
  override render() {
    const ids = Array.isArray(this.props.composite_ids) ? (this.props.composite_ids as string[]) : [];
    return html`<fieldset><legend>Forms included</legend>
      ${this.forms.length ? nothing : html`<p class="muted">You have no other form yet.</p>`}
      ${this.forms.map((f) => html`<label class="check"><input type="checkbox" .checked=${ids.includes(f.id)} @change=${(e: Event) => {
        const on = (e.target as HTMLInputElement).checked;
        const next = on ? [...ids, f.id] : ids.filter((x) => x !== f.id);
        this.set('composite_ids', next.length ? next : null);
      }} />${f.title}</label>`)}
    </fieldset>`;
  }
}
customElements.get('fl-composite-editor') || customElements.define('fl-composite-editor', FlCompositeEditor);
