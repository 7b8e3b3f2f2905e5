import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { tokens, controls } from '../controls/styles';
import { resultsStyles } from './results-styles';
import { summaryStyles } from './summary-styles';
import type { Analytics, Funnel, QuestionSummaries, QuestionSummary } from '../../data/results';
import { funnelSection } from './funnel-chart';
import { cardBody, numbersTable, type CardContext } from './question-card';
import { barList } from './summary-bars';

type Line = { id: string; kind: 'bar' | 'line' | 'hbar'; labels: string[]; series: Array<{ label: string; values: number[] }> };
type Sub = NonNullable<QuestionSummary['sub_questions']>[number];

const fmtSeconds = (s: number | null) => (s === null ? '—' : s < 90 ? `${s} s` : `${Math.round(s / 60)} min`);

/**
 * `<fl-results-summary>`: Results > Summary (docs/workspace.md, "Results"): totals, responses per day,
 * the drop-off funnel, and one card per question (question-card.ts). Bars are HTML (summary-bars.ts);
 * the time series (responses per day, NPS by week, date timelines) are chart.js canvases, loaded on first
 * draw (charts.ts). Each chart has a table of its numbers under "Show the numbers".
 */
export class FlResultsSummary extends LitElement {
  static override styles = [tokens, controls, resultsStyles, summaryStyles];
  static override properties = {
    analytics: { attribute: false },
    summaries: { attribute: false },
    funnel: { attribute: false },
    filtered: { type: Boolean },
    expanded: { state: true },
  };
  analytics: Analytics | null = null;
  summaries: QuestionSummaries | null = null;
  /** The funnel of the version chosen (all versions: the newest); the answer filters do not apply to it. */
  funnel: Funnel | null = null;
  /** Whether filters narrow the numbers (the funnel then says it counts every visit). */
  filtered = false;
  /** Bar lists opened past their top 10, by id. */
  expanded = new Set<string>();

  private readonly ctx: CardContext = {
    expanded: this.expanded,
    toggle: (id) => {
      const next = new Set(this.expanded);
      if (!next.delete(id)) next.add(id);
      this.expanded = next;
    },
    canvas: (id, label) => this.canvas(id, label),
    showResponses: () => this.dispatchEvent(new CustomEvent('fl-show-responses', { bubbles: true, composed: true })),
  };

  /** The canvases to draw: responses per day, and per question its NPS trend or its date timeline. */
  private charts(): Line[] {
    const a = this.analytics;
    const s = this.summaries;
    if (!a || !s) return [];
    const out: Line[] = [
      { id: 'by-day', kind: a.responses_by_day.length > 14 ? 'line' : 'bar', labels: a.responses_by_day.map((d) => d.date), series: [
        { label: 'Responses', values: a.responses_by_day.map((d) => d.total) },
        { label: 'Completed', values: a.responses_by_day.map((d) => d.completed) },
      ] },
    ];
    const visit = (q: QuestionSummary | Sub, id: string) => {
      if (q.kind === 'date' && q.by_day?.length) out.push({ id, kind: q.by_day.length > 31 ? 'line' : 'bar', labels: q.by_day.map((b) => b.date), series: [{ label: 'Answers', values: q.by_day.map((b) => b.count) }] });
      if (q.nps_by_week?.some((w) => w.answered > 0)) {
        out.push({ id: `trend-${id}`, kind: 'line', labels: q.nps_by_week.map((w) => w.week), series: [{ label: 'NPS', values: q.nps_by_week.map((w) => w.nps ?? Number.NaN) }] });
      }
      for (const sub of (q as QuestionSummary).sub_questions ?? []) visit(sub, `${id}-${sub.question_id}`);
    };
    for (const q of s.questions) visit(q, q.question_id);
    return out;
  }

  protected override async updated(changed: PropertyValues): Promise<void> {
    this.ctx.expanded = this.expanded;
    if (!changed.has('analytics') && !changed.has('summaries')) return;
    const list = this.charts();
    if (!list.length) return;
    const { drawChart } = await import('./charts');
    for (const c of list) {
      const canvas = this.renderRoot.querySelector<HTMLCanvasElement>(`canvas[data-chart="${CSS.escape(c.id)}"]`);
      if (canvas) drawChart(canvas, c.kind, c.labels, c.series);
    }
  }

  private canvas(id: string, label: string) {
    return html`<div class="chart"><canvas data-chart=${id} role="img" aria-label=${label}></canvas></div>`;
  }

  override willUpdate() {
    this.ctx.expanded = this.expanded;
  }

  override render() {
    const a = this.analytics;
    const s = this.summaries;
    if (!a || !s) return html`<p class="muted" role="status">Loading the summary…</p>`;
    const titles = new Map(s.questions.map((q) => [q.question_id, q.title]));
    const reachedOf = Math.max(1, a.total_responses);
    return html`<div class="stack">
      <div class="stats">
        <div class="card stat"><span class="muted">Responses</span><span class="n">${a.total_responses}</span></div>
        <div class="card stat"><span class="muted">Completed</span><span class="n">${a.completed_responses}</span></div>
        <div class="card stat"><span class="muted">Completion rate</span><span class="n">${a.completion_rate} %</span></div>
        <div class="card stat"><span class="muted">Average time</span><span class="n">${fmtSeconds(a.average_completion_time_seconds)}</span></div>
      </div>
      <section class="card qcard" aria-labelledby="h-days"><h2 id="h-days">Responses per day</h2>
        ${a.responses_by_day.length
          ? html`${this.canvas('by-day', 'Chart of responses and completed responses per day; the numbers are in the table below')}
            ${numbersTable('Responses per day', ['Day', 'Responses', 'Completed'], a.responses_by_day.map((d) => [d.date, d.total, d.completed]))}`
          : html`<p class="muted">No responses in this period.</p>`}
      </section>
      ${this.funnel ? funnelSection(this.funnel, this.filtered) : nothing}
      ${a.question_drop_off.length && a.total_responses
        ? html`<section class="card qcard" aria-labelledby="h-funnel"><h2 id="h-funnel">Drop-off by question</h2>
            ${barList(
              a.question_drop_off.map((q) => ({ label: titles.get(q.question_id) ?? q.question_id, count: q.reached, share: Math.round((q.reached / reachedOf) * 10000) / 100 })),
              { id: 'funnel', expanded: this.expanded.has('funnel'), toggle: () => this.ctx.toggle('funnel'), label: 'How many respondents reached each question, in form order' },
            )}
            ${numbersTable('Drop-off per question', ['Question', 'Reached', 'Answered'], a.question_drop_off.map((q) => [titles.get(q.question_id) ?? q.question_id, q.reached, q.answered]))}</section>`
        : nothing}
      <h2>Questions</h2>
      ${s.questions.map(
        (q) => html`<section class="card qcard" aria-labelledby=${`h-${q.question_id}`}>
          <div class="qhead"><h3 id=${`h-${q.question_id}`}>${q.title}</h3><span class="muted">${q.answered} answered</span></div>
          ${cardBody(q, this.ctx, q.question_id)}</section>`,
      )}
    </div>`;
  }
}
customElements.get('fl-results-summary') || customElements.define('fl-results-summary', FlResultsSummary);
