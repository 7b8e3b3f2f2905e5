import { html, nothing, type TemplateResult } from 'lit';

/*
 * The summary's bar charts as plain HTML (docs/workspace.md, "Results"): one row per value, its label on
 * its own line right above its bar, the count and percent written beside the bar. Rows are text, so they
 * read in order with a screen reader, zoom and wrap like text, and scale to any number of values (no axis
 * labels to skip, no bars thinner than a line).
 */

export interface BarRow {
  label: string;
  count: number;
  /** Percent, two decimals (the API's `share`). */
  share: number;
  /** A muted tag after the label, e.g. "other". */
  tag?: string;
}

/** Rows shown before "n more". */
export const TOP = 10;

const pctText = (share: number) => `${Math.round(share * 10) / 10} %`;

/** Bars scaled to the largest count (so the longest bar fills the track); `limit` rows unless expanded. */
export function barList(rows: BarRow[], opts: { id: string; expanded: boolean; toggle: () => void; limit?: number; label: string }): TemplateResult {
  const limit = opts.limit ?? TOP;
  const shown = opts.expanded ? rows : rows.slice(0, limit);
  const max = Math.max(1, ...rows.map((r) => r.count));
  const hidden = rows.length - limit;
  return html`<ul class="bars" id=${`bars-${opts.id}`} aria-label=${opts.label}>
      ${shown.map(
        (r) => html`<li class="brow">
          <span class="blabel">${r.label}${r.tag ? html` <span class="tag">${r.tag}</span>` : nothing}</span>
          <span class="btrack" aria-hidden="true">${r.count ? html`<span class="bfill" style="width: ${(r.count / max) * 100}%"></span>` : nothing}</span>
          <span class="bnum"><b>${r.count}</b> · ${pctText(r.share)}</span>
        </li>`,
      )}
    </ul>
    ${hidden > 0
      ? html`<button class="btn small more" type="button" aria-expanded=${opts.expanded ? 'true' : 'false'} aria-controls=${`bars-${opts.id}`} @click=${opts.toggle}>
          ${opts.expanded ? 'Show the top 10' : `${hidden} more`}</button>`
      : nothing}`;
}

/** NPS split as one stacked bar (promoters, passives, detractors) with a legend of counts and percents. */
export function npsBar(split: { promoters: { count: number; share: number }; passives: { count: number; share: number }; detractors: { count: number; share: number } }): TemplateResult {
  const parts = [
    { key: 'promoters', name: 'Promoters (9-10)', ...split.promoters },
    { key: 'passives', name: 'Passives (7-8)', ...split.passives },
    { key: 'detractors', name: 'Detractors (0-6)', ...split.detractors },
  ];
  return html`<div class="stacked" aria-hidden="true">${parts.map((p) => (p.count ? html`<span class="seg ${p.key}" style="width: ${p.share}%"></span>` : nothing))}</div>
    <ul class="legend">${parts.map((p) => html`<li><span class="swatch ${p.key}" aria-hidden="true"></span>${p.name}: <b>${pctText(p.share)}</b> (${p.count})</li>`)}</ul>`;
}
