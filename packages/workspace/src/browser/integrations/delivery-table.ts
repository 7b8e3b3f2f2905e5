import { css, html, nothing } from 'lit';

/** One delivery as the log shows it: a webhook's (data/webhooks.ts) or an integration's (data/integrations.ts). */
export interface DeliveryRow {
  created_at: string;
  event: string;
  status: string;
  attempts: number;
  response_code?: number | null;
  response_excerpt?: string | null;
  next_attempt_at?: string | null;
  error?: string | null;
}

/** The table's look, for the styles of the element that shows it (shadow DOM: each element brings its own). */
export const deliveryTableStyles = css`
  .scroll { overflow-x: auto; position: relative; }
  .deliveries { border-collapse: collapse; width: 100%; font-size: 0.875rem; min-width: 32rem; }
  .deliveries th, .deliveries td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid var(--_border); vertical-align: top; }
  .deliveries td.wrap-any { max-width: 16rem; overflow-wrap: anywhere; }
  .st-delivered { color: var(--_success); font-weight: 600; }
  .st-failed { color: var(--_danger); font-weight: 600; }
  .st-delivered .note { color: var(--_muted); font-weight: 400; max-width: 12rem; }
  .excerpt summary { cursor: pointer; color: var(--_primary); white-space: nowrap; }
  .excerpt pre { margin: 0.25rem 0 0; max-width: 18rem; max-height: 10rem; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere; font-size: 0.8rem; background: var(--_bg); padding: 0.35rem; border-radius: var(--_radius); }
`;

export interface DeliveryTableOptions<D> {
  /** The event of a test delivery (`webhook.test`, `integration.test`): its row says "test". */
  testEvent: string;
  /** Where each delivery went, as its own column (the webhooks' log: several receivers share it). */
  target?: { header: string; of(d: D): string };
  /** The action on a row that may be sent again (none for those who may not edit). */
  again?: { label: string; when(d: D): boolean; run(d: D): void };
}

/**
 * A delivered delivery's `error` is a note, not a failure (an integration's "Sent again after a restart: it may
 * appear twice", docs/integrations.md): it goes under the status, in the first columns a phone shows.
 */
const delivered = (d: DeliveryRow) => d.status === 'delivered';

/** What a delivery's event says in the log's Event column, in plain words. */
const eventWords = (event: string, testEvent: string) =>
  event === testEvent ? 'test' : event === 'response.deleted' ? 'responses deleted' : event === 'booking.call_completed' ? 'call outcome' : 'response';

/**
 * A delivery log (docs/webhooks.md, docs/integrations.md), newest first: when, where to, what, its state and
 * attempts, the receiver's answer (its code, and the start of its body on request), the next try or the
 * error, and sending a delivery again. The webhooks' log and each integration's show it the same way.
 */
export function deliveryTable<D extends DeliveryRow>(list: readonly D[], opts: DeliveryTableOptions<D>) {
  const { target, again } = opts;
  const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '');
  return html`<div class="scroll" tabindex="0" role="region" aria-label="Deliveries"><table class="deliveries"><caption class="sr-only">Deliveries, newest first</caption>
    <thead><tr><th scope="col">When</th>${target ? html`<th scope="col">${target.header}</th>` : nothing}<th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Answer</th><th scope="col">Next try / error</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
    <tbody>${list.map((d) => html`<tr>
      <td>${when(d.created_at)}</td>
      ${target ? html`<td class="wrap-any">${target.of(d)}</td>` : nothing}
      <td>${eventWords(d.event, opts.testEvent)}</td>
      <td class="st-${d.status}">${d.status}${delivered(d) && d.error ? html`<div class="note">${d.error.slice(0, 200)}</div>` : nothing}</td>
      <td>${d.attempts}</td>
      <td>${d.response_code ?? '—'}${d.response_excerpt
        ? html`<details class="excerpt"><summary>Response body</summary><pre tabindex="0" aria-label="Start of the response body">${d.response_excerpt}</pre></details>`
        : nothing}</td>
      <td class="wrap-any">${when(d.next_attempt_at)}${d.error && !delivered(d) ? html`<div class="muted">${d.error.slice(0, 200)}</div>` : nothing}</td>
      <td>${again?.when(d) ? html`<button class="btn small" type="button" @click=${() => again.run(d)}>${again.label}</button>` : nothing}</td>
    </tr>`)}</tbody></table></div>`;
}
