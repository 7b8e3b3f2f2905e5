import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { resultsStyles } from './results-styles';
import type { Api } from '../../data/client';
import type { Question } from '../../data/forms';
import { bulkDeleteResponses, deleteResponse, getResponse, listResponses, paymentsOf, type ResponseFilter, type ResponseItem } from '../../data/results';
import { answerDetail, cellValue, columnsOf, subFields } from './answer-format';
import { fuseDetails, LinkedFormTitles, responseInUrl } from './fuse-links';
import '../controls/confirm-dialog';
import { money } from './payment-refund';
import type { FlConfirm } from '../controls/confirm-dialog';

/** A payment's state as an owner reads it. */
const PAYMENT_STATUS: Record<string, string> = {
  requires_payment: 'Not paid yet',
  processing: 'Processing',
  succeeded: 'Paid',
  failed: 'Failed',
  canceled: 'Canceled',
  partially_refunded: 'Partly refunded',
  refunded: 'Refunded',
};

/** A payment question's table cell: `€30.00 · Paid`, or nothing when the response has no payment for it. */
function paymentCell(r: ResponseItem, questionId: string): string {
  const p = paymentsOf(r).find((x) => x.question_id === questionId);
  return p ? `${money(p.amount, p.currency)} · ${PAYMENT_STATUS[p.status] ?? p.status}` : '';
}

const CALL_OUTCOME: Record<string, string> = { confirmed: 'confirmed by phone', cancelled: 'cancelled by phone', no_answer: 'no answer to the call', failed: 'call failed' };

/**
 * A booking question's table cell: the time booked, its state now and the confirmation call's outcome
 * (docs/booking.md, "The outcome"); null when the response carries no booking for it.
 */
function bookingCell(r: ResponseItem, questionId: string): string | null {
  const b = ((r as { bookings?: Array<{ question_id: string; status: string; start: string; confirmation_call: { outcome: string | null } | null }> }).bookings ?? []).find((x) => x.question_id === questionId);
  if (!b) return null;
  const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(b.start));
  const outcome = b.confirmation_call?.outcome ? CALL_OUTCOME[b.confirmation_call.outcome] : b.confirmation_call ? 'call pending' : null;
  return [when, b.status === 'cancelled' ? 'Cancelled' : 'Booked', outcome].filter(Boolean).join(' · ');
}

/** Responses per page of the table; `<formloom-results>` reads the first page ahead with the same size. */
export const PER_PAGE = 25;

/** The answer of the list endpoint, as the table reads it. */
export type ResponsePage = Awaited<ReturnType<typeof listResponses>>;

/**
 * `<fl-results-table>`: the responses, newest first, one column per question (sub-columns for groups), a
 * page at a time from the list endpoint, with the chosen response's detail beside the table and deletion
 * for those allowed (docs/workspace.md, "Results"). Filters come from `<formloom-results>`.
 */
export class FlResultsTable extends LitElement {
  static override styles = [
    tokens,
    controls,
    resultsStyles,
    css`
      .layout { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
      .layout.open { grid-template-columns: minmax(0, 1fr) minmax(18rem, 24rem); }
      .scroll { position: relative; align-self: start; overflow-x: auto; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); }
      table { min-width: 40rem; }
      thead th { background: var(--_bg); min-width: 7rem; max-width: 16rem; vertical-align: bottom; }
      thead th:first-child { min-width: 0; }
      tbody tr { cursor: pointer; }
      tbody tr[aria-selected='true'] { background: color-mix(in srgb, var(--_primary) 12%, transparent); }
      td { max-width: 16rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      td.when { max-width: none; }
      td button.open { font: inherit; background: none; border: 0; color: var(--_primary); text-decoration: underline; cursor: pointer; padding: 0.25rem 0; min-height: 2rem; }
      .pill { font-size: 0.75rem; padding: 0.1rem 0.45rem; border-radius: 999px; border: 1px solid var(--_border); background: var(--_surface); }
      .pill.done { color: var(--_success); border-color: currentColor; }
      aside { align-self: start; display: grid; gap: 0.75rem; }
      aside dl { margin: 0; display: grid; gap: 0.5rem; }
      aside dt { font-weight: 600; font-size: 0.875rem; }
      aside dd { margin: 0; overflow-wrap: anywhere; }
      .preview { display: block; max-width: 100%; max-height: 12rem; border-radius: var(--_radius); margin-bottom: 0.3rem; }
      .pager { display: flex; gap: 0.5rem; align-items: center; justify-content: space-between; flex-wrap: wrap; }
      @media (max-width: 900px) { .layout.open { grid-template-columns: minmax(0, 1fr); } }
      /* A phone: each response is a card of "question: answer" lines (the header row stays for screen readers). */
      @media (max-width: 600px) {
        .scroll { overflow-x: visible; border: 0; background: none; }
        table { min-width: 0; display: block; }
        thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
        tbody { display: grid; gap: 0.6rem; }
        tbody tr { display: grid; gap: 0.15rem; padding: 0.5rem 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); }
        tbody td { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 0.5rem; max-width: none; white-space: normal; overflow-wrap: anywhere; border: 0; padding: 0.2rem 0; }
        tbody td::before { content: attr(data-label); color: var(--_muted); font-size: 0.8125rem; }
        tbody td.when, tbody td.pick { display: flex; flex-wrap: wrap; align-items: center; gap: 0.4rem; }
        tbody td.when::before, tbody td.pick::before { content: none; }
      }
    `,
  ];
  static override properties = {
    api: { attribute: false },
    formId: { attribute: 'form-id' },
    questions: { attribute: false },
    filters: { attribute: false },
    canDelete: { type: Boolean, attribute: 'can-delete' },
    items: { state: true },
    total: { state: true },
    page: { state: true },
    cursors: { state: true },
    next: { state: true },
    selected: { state: true },
    checked: { state: true },
    error: { state: true },
    loading: { state: true },
  };
  api!: Api;
  formId = '';
  questions: Question[] = [];
  filters: ResponseFilter = {};
  canDelete = false;
  items: ResponseItem[] = [];
  total = 0;
  page = 1;
  /** The cursor of each page shown so far, the current one last (`''`: the first page): "Newer" goes back. */
  cursors: string[] = [''];
  /** The current page's `next_cursor`: "Older" reads the page after it by keyset, fast at any depth. */
  next: string | null = null;
  selected: ResponseItem | null = null;
  checked = new Set<string>();
  error = '';
  loading = true;
  /**
   * The unfiltered first page, read by `<formloom-results>` while the summary loads, so opening the
   * Responses view shows rows at once; used once, and only for that page (null: none).
   */
  prefetched: Promise<ResponsePage | null> | null = null;

  /** The filters the table last read with: the parent hands a new but equal object at each of its renders. */
  private filtersKey: string | null = null;
  private filtersChanged = false;

  override willUpdate(changed: Map<string, unknown>) {
    if (!changed.has('filters')) return;
    const key = JSON.stringify(this.filters);
    if (key === this.filtersKey) return;
    if (this.filtersKey !== null) this.cursors = [''];
    this.filtersKey = key;
    this.filtersChanged = true;
  }

  override updated(changed: Map<string, unknown>) {
    if (!this.filtersChanged && !changed.has('cursors') && !changed.has('formId')) return;
    this.filtersChanged = false;
    void this.load();
  }

  /** Reloads the current page (also called when new responses arrive). */
  async load() {
    this.loading = true;
    try {
      const cursor = this.cursors[this.cursors.length - 1];
      const ahead = !cursor && Object.keys(this.filters).length === 0 ? await this.prefetched : null;
      this.prefetched = null;
      const r = ahead ?? await listResponses(this.api, this.formId, { ...this.filters, per_page: PER_PAGE, ...(cursor ? { cursor } : {}) });
      this.items = r.responses;
      this.total = r.total;
      this.page = r.page;
      this.next = r.next_cursor;
      this.error = '';
      if (this.selected) this.selected = r.responses.find((x) => x.id === this.selected!.id) ?? this.selected;
      await this.openFromUrl(r.responses);
    } catch (e) {
      this.error = (e as Error).message;
    } finally {
      this.loading = false;
    }
  }

  private get confirm() {
    return this.renderRoot.querySelector('fl-confirm') as FlConfirm;
  }

  private async deleteIds(ids: string[]) {
    const one = ids.length === 1;
    const ok = await this.confirm.ask({
      heading: one ? 'Delete this response?' : `Delete ${ids.length} responses?`,
      body: 'Deleted responses cannot be recovered, nor their uploaded files. Analytics and exports will no longer count them.',
      confirmText: one ? 'Delete response' : `Delete ${ids.length} responses`,
      danger: true,
    });
    if (!ok) return;
    try {
      if (one) await deleteResponse(this.api, this.formId, ids[0]!);
      else await bulkDeleteResponses(this.api, this.formId, ids);
      this.checked = new Set();
      if (this.selected && ids.includes(this.selected.id)) this.selected = null;
      this.dispatchEvent(new CustomEvent('fl-responses-changed', { bubbles: true, composed: true }));
      await this.load();
      this.announce(one ? 'Response deleted.' : `${ids.length} responses deleted.`);
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  /** After a refund (`<fl-payment-refund>`, docs/payments.md "Refunds"): the table and the detail read again. */
  private async refunded(e: CustomEvent<{ refunded: string }>) {
    await this.load();
    this.announce(`${e.detail.refunded} refunded.`);
  }

  private renderPayments(r: ResponseItem) {
    const payments = paymentsOf(r);
    if (!payments.length) return nothing;
    const title = (id: string) => this.questions.find((q) => q.id === id)?.title ?? 'Payment';
    return html`<h3>Payments</h3>
      <dl>
        ${payments.map(
          (p) => html`<div><dt>${title(p.question_id)}</dt><dd>
            <div>${money(p.amount, p.currency)} · ${PAYMENT_STATUS[p.status] ?? p.status}${p.amount_refunded ? ` · ${money(p.amount_refunded, p.currency)} refunded` : ''}</div>
            <div class="muted"><code>${p.processor_payment_id}</code></div>
            ${this.canDelete && (p.status === 'succeeded' || p.status === 'partially_refunded')
              ? html`<fl-payment-refund .api=${this.api} form-id=${this.formId} response-id=${r.id} .payment=${p} @fl-refunded=${(e: CustomEvent<{ refunded: string }>) => void this.refunded(e)}></fl-payment-refund>`
              : nothing}
          </dd></div>`,
        )}
      </dl>`;
  }

  private announce(text: string) {
    const live = this.renderRoot.querySelector('#live');
    if (live) live.textContent = text;
  }

  private toggle(id: string, on: boolean) {
    const next = new Set(this.checked);
    if (on) next.add(id);
    else next.delete(id);
    this.checked = next;
  }

  private renderDetail(r: ResponseItem) {
    const q = r.quiz_results;
    return html`<aside class="card" aria-labelledby="detail-h">
      <div class="qhead"><h2 id="detail-h" tabindex="-1">Response</h2><button class="btn small" type="button" @click=${() => (this.selected = null)}>Close</button></div>
      <dl>
        ${this.questions.filter((question) => question.type !== 'payment' && question.type !== 'fuse').map((question) => {
          const a = r.answers.find((x) => x.question_id === question.id);
          const subs = subFields(question);
          return html`<div><dt>${question.title}</dt><dd>${subs.length && a && typeof a.value === 'object' && a.value
            ? subs.map((s) => html`<div><span class="muted">${s.label}:</span> ${answerDetail((a.value as Record<string, unknown>)[s.key])}</div>`)
            : answerDetail(a?.value)}</dd></div>`;
        })}
      </dl>
      ${this.renderPayments(r)}
      ${q ? html`<h3>Quiz</h3><p>Score ${q.score} of ${q.max_score} · ${q.correct_answers} of ${q.total_scorable_questions} correct${q.matched_ending_id ? ` · ending ${q.matched_ending_id}` : ''}</p>` : nothing}
      <h3>Details</h3>
      <dl>
        <div><dt>Submitted</dt><dd>${new Date(r.submitted_at).toLocaleString()}</dd></div>
        <div><dt>Completed</dt><dd>${r.completed_at ? new Date(r.completed_at).toLocaleString() : 'Partial'}</dd></div>
        <div><dt>Browser</dt><dd>${r.metadata.user_agent ?? '—'}</dd></div>
        <div><dt>Referrer</dt><dd>${r.metadata.referrer ?? '—'}</dd></div>
        ${Object.entries(r.metadata.hidden ?? {}).map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
        <div><dt>Response id</dt><dd><code>${r.id}</code></dd></div>
        ${fuseDetails(r, this.formId, (id) => this.linkedTitles.get(this.api, id))}
      </dl>
      ${this.canDelete ? html`<button class="btn danger" type="button" @click=${() => void this.deleteIds([r.id])}>Delete response</button>` : nothing}
    </aside>`;
  }

  /** The titles of the forms a Fuse links this form's responses to (fuse-links.ts). */
  private readonly linkedTitles = new LinkedFormTitles(() => this.requestUpdate());

  /** Once: the response `?response=` names (a linked response's link, fuse-links.ts), also when not on this page. */
  private urlOpened = false;
  private async openFromUrl(listed: ResponseItem[]) {
    const id = this.urlOpened ? null : responseInUrl();
    this.urlOpened = true;
    if (!id) return;
    const found = listed.find((x) => x.id === id) ?? ((await getResponse(this.api, this.formId, id).catch(() => null)) as ResponseItem | null);
    if (found) this.open(found);
  }

  private open(r: ResponseItem) {
    this.selected = r;
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLElement>('#detail-h')?.focus());
  }

  override render() {
    const cols = columnsOf(this.questions);
    const groups = this.questions.map((q) => ({ q, span: Math.max(1, subFields(q).length) }));
    const hasGroups = groups.some((g) => g.span > 1);
    const pages = Math.max(1, Math.ceil(this.total / PER_PAGE));
    return html`<div class="stack">
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      ${this.canDelete && this.checked.size
        ? html`<div class="row"><span>${this.checked.size} selected</span><button class="btn danger" type="button" @click=${() => void this.deleteIds([...this.checked])}>Delete selected</button></div>`
        : nothing}
      <div class="layout ${this.selected ? 'open' : ''}">
        <div class="scroll">
          <table aria-busy=${this.loading ? 'true' : 'false'}>
            <caption class="sr-only">Responses, newest first</caption>
            <thead>
              <tr>
                ${this.canDelete ? html`<th scope="col" rowspan=${hasGroups ? 2 : 1}><span class="sr-only">Select</span></th>` : nothing}
                <th scope="col" rowspan=${hasGroups ? 2 : 1}>Submitted</th>
                ${groups.map((g) => html`<th scope="col" colspan=${g.span} rowspan=${hasGroups && g.span === 1 ? 2 : 1}>${g.q.title}</th>`)}
              </tr>
              ${hasGroups ? html`<tr>${cols.filter((c) => c.sub !== undefined).map((c) => html`<th scope="col">${c.label}</th>`)}</tr>` : nothing}
            </thead>
            <tbody>
              ${this.items.map(
                (r) => html`<tr aria-selected=${this.selected?.id === r.id ? 'true' : 'false'} @click=${(e: Event) => (e.target as HTMLElement).closest('input,button') ? undefined : this.open(r)}>
                  ${this.canDelete ? html`<td class="pick"><input type="checkbox" aria-label="Select the response of ${new Date(r.submitted_at).toLocaleString()}" .checked=${this.checked.has(r.id)} @change=${(e: Event) => this.toggle(r.id, (e.target as HTMLInputElement).checked)} /></td>` : nothing}
                  <td class="when"><button class="open" type="button" @click=${() => this.open(r)}>${new Date(r.submitted_at).toLocaleString()}</button> ${r.completed_at ? html`<span class="pill done">Completed</span>` : html`<span class="pill">Partial</span>`}</td>
                  ${cols.map((c) => {
                    // A payment question's cell is its payment (docs/payments.md): amount and state.
                    const text = c.question.type === 'payment' ? paymentCell(r, c.question.id) : (c.question.type === 'booking' ? bookingCell(r, c.question.id) : null) ?? cellValue(r.answers, c);
                    return html`<td title=${text} data-label=${c.sub !== undefined ? `${c.question.title}: ${c.label}` : c.label}>${text}</td>`;
                  })}
                </tr>`,
              )}
            </tbody>
          </table>
          ${!this.loading && this.items.length === 0 ? html`<p class="muted" style="padding: 1rem">No responses match these filters.</p>` : nothing}
        </div>
        ${this.selected ? this.renderDetail(this.selected) : nothing}
      </div>
      <div class="pager">
        <span class="muted">${this.total} response${this.total === 1 ? '' : 's'} · page ${this.page} of ${pages}</span>
        <div class="row">
          <button class="btn small" type="button" ?disabled=${this.cursors.length <= 1} @click=${() => (this.cursors = this.cursors.slice(0, -1))}>Newer</button>
          <button class="btn small" type="button" ?disabled=${!this.next} @click=${() => (this.cursors = [...this.cursors, this.next!])}>Older</button>
        </div>
      </div>
      <p id="live" class="sr-only" role="status" aria-live="polite"></p>
      <fl-confirm></fl-confirm>
    </div>`;
  }
}
customElements.get('fl-results-table') || customElements.define('fl-results-table', FlResultsTable);
