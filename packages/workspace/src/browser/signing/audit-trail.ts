import { LitElement, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { AuditEntry } from '../../data/signing';
import type { ChainCheck } from './audit-chain';
import { signingStyles } from './signing-styles';
import { actionLabel, when } from './signing-format';

/**
 * `<fl-audit-trail>`: a session's audit entries, oldest first, and the result of checking their hash chain
 * in this browser (audit-chain.ts). Two heads, told apart: the current head (the newest entry, which no PDF
 * carries, since sealing itself adds entries) and, per sealed PDF, the head printed on it ("Audit head at
 * sealing"): the `prev_hash` of its `document_sealed` entry, the head when it was rendered.
 */
export class FlAuditTrail extends LitElement {
  static override styles = [tokens, controls, signingStyles];
  static override properties = { entries: { attribute: false }, check: { attribute: false }, labels: { attribute: false } };
  entries: AuditEntry[] = [];
  check: ChainCheck | null = null;
  /** The session's slot labels by slot number (Tenant, Landlord, ...). */
  labels = new Map<number, string>();

  private renderCheck() {
    const c = this.check;
    if (!c) return html`<p class="muted" role="status">Checking the chain…</p>`;
    if (c.state === 'intact') {
      return html`<div class="card check-ok stack" role="status"><p><strong>Chain verified:</strong> ${c.count === 1 ? 'the entry hashes' : `all ${c.count} entries hash and link`} correctly (checked in this browser).</p>
        ${c.head ? html`<p class="muted hint">Current head (entry ${this.entries[this.entries.length - 1]?.seq}, the newest; on no PDF): <span class="hash">${c.head}</span></p>` : nothing}
        ${this.entries.filter((e) => e.action === 'document_sealed' && e.prev_hash).map((e) => html`<p class="muted hint">Printed on the ${e.details.kind === 'voided' ? 'VOIDED ' : ''}PDF ${String(e.details.document_id ?? '')} as "Audit head at sealing" (entry ${e.seq - 1}, before it was sealed): <span class="hash">${e.prev_hash}</span></p>`)}</div>`;
    }
    if (c.state === 'broken') {
      return html`<div class="card check-bad stack" role="alert"><p><strong>Chain broken at entry ${c.entry}</strong> (${actionLabel(c.action)}): ${c.problems.join('; ')}.</p>
        <p class="muted hint">The trail was changed after it was written. Keep the sealed PDFs: their certificate page holds the head hash sealed at the time.</p></div>`;
    }
    return html`<div class="card stack" role="status"><p><strong>Chain not checked:</strong> ${c.reason}</p></div>`;
  }

  override render() {
    return html`<section class="card stack" aria-labelledby="audit-h">
      <h3 id="audit-h">Audit trail</h3>
      ${this.renderCheck()}
      <div class="scroll" tabindex="0" role="region" aria-label="Audit entries"><table>
        <caption class="sr-only">Audit entries, oldest first</caption>
        <thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">IP address</th></tr></thead>
        <tbody>${this.entries.map((e) => {
          const slot = e.slot_number === null ? null : (this.labels.get(e.slot_number) ?? `Signer ${e.slot_number}`);
          const who = e.actor_name ?? e.actor_email ?? (e.action === 'email_sent' ? `to ${String(e.details.to ?? '')}` : (slot ?? 'System'));
          return html`<tr>
            <td class="num">${e.seq}</td><td>${when(e.timestamp)}</td>
            <td>${actionLabel(e.action)}${slot ? html` <span class="muted">(${slot})</span>` : nothing}${typeof e.details.reason === 'string' ? html`<div class="muted">${e.details.reason}</div>` : nothing}</td>
            <td>${who}${e.actor_name && e.actor_email ? html`<div class="muted">${e.actor_email}</div>` : nothing}</td>
            <td>${e.ip_address ?? '—'}</td></tr>`;
        })}</tbody></table></div>
    </section>`;
  }
}
customElements.get('fl-audit-trail') || customElements.define('fl-audit-trail', FlAuditTrail);
