import { html, nothing, type TemplateResult } from 'lit';
import type { Funnel } from '../../data/results';
import { numbersTable } from './question-card';

/*
 * The funnel card of Results > Summary (docs/workspace.md, "Results"; the API's GET /forms/:id/analytics/funnel):
 * views -> starts -> each question reached -> completed, one HTML bar per step scaled to the views, its
 * count and share written beside it and what was lost since the step before under it, then the median time
 * to complete and the "Show the numbers" table. Rows are text (summary-bars.ts explains why).
 */

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);

export const fmtDuration = (s: number | null) =>
  s === null ? '—' : s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${Math.round((s / 3600) * 10) / 10} h`;

export function funnelSection(f: Funnel, filtered: boolean): TemplateResult {
  const top = Math.max(1, f.steps[0]?.count ?? 0);
  const versionText = f.version === null ? '' : ` · version ${f.version}`;
  return html`<section class="card qcard" aria-labelledby="h-funnel-steps">
    <div class="qhead"><h2 id="h-funnel-steps">Funnel${versionText}</h2>
      <span class="muted small">${filtered ? 'Every visit of this version: the answer and date filters do not apply here' : 'Views, starts, each question reached, completed'}</span></div>
    <div class="figures">
      <span>Median time to complete <b>${fmtDuration(f.median_completion_seconds)}</b></span>
      <span>Completed <b>${f.completion_rate} %</b> of views</span>
    </div>
    <ol class="bars funnel" aria-label="How many people reached each step: viewed, started, each question, completed">
      ${f.steps.map(
        (s, i) => html`<li class="brow">
          <span class="blabel">${s.kind === 'question' ? html`<span class="tag">Q${i - 1}</span> ` : nothing}${s.label}</span>
          <span class="btrack" aria-hidden="true">${s.count ? html`<span class="bfill ${s.kind}" style="width: ${(s.count / top) * 100}%"></span>` : nothing}</span>
          <span class="bnum"><b>${s.count}</b> · ${pct(s.count, top)} %</span>
          ${i > 0 && s.drop_off > 0 ? html`<span class="drop small">−${s.drop_off} (${s.drop_off_rate} %) since the step before</span>` : nothing}
        </li>`,
      )}
    </ol>
    ${numbersTable(
      `Funnel${versionText}`,
      ['Step', 'People', 'Share of views', 'Lost since the step before', 'Lost (%)'],
      f.steps.map((s) => [s.label, s.count, `${pct(s.count, top)} %`, s.drop_off, `${s.drop_off_rate} %`]),
    )}
  </section>`;
}
