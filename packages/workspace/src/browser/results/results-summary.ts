import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { tokens, controls } from '../controls/styles';
import { resultsStyles } from './results-styles';
import type { Analytics, QuestionSummaries, QuestionSummary } from '../../data/results';

type Bars = { id: string; kind: 'bar' | 'line' | 'hbar'; labels: string[]; series: Array<{ label: string; values: number[] }> };

const fmtSeconds = (s: number | null) => (s === null ? '—' : s < 90 ? `${s} s` : `${Math.round(s / 60)} min`);
const choiceLabel = (q: QuestionSummary, v: string) => (q.type === 'yes_no' ? (v === 'true' ? 'Yes' : 'No') : v);

/**
 * `<fl-results-summary>`: Results > Summary (docs/workspace.md, "Results"): totals, responses per day,
 * the drop-off funnel, and one card per question. Each chart sits beside a table of its numbers (its text
 * alternative, under "Show the numbers"); chart.js loads on first draw (charts.ts).
 */
export class FlResultsSummary extends LitElement {
  static override styles = [tokens, controls, resultsStyles];
  static override properties = { analytics: { attribute: false }, summaries: { attribute: false } };
  analytics: Analytics | null = null;
  summaries: QuestionSummaries | null = null;

  private charts(): Bars[] {
    const a = this.analytics;
    const s = this.summaries;
    if (!a || !s) return [];
    const out: Bars[] = [
      { id: 'by-day', kind: a.responses_by_day.length > 14 ? 'line' : 'bar', labels: a.responses_by_day.map((d) => d.date), series: [
        { label: 'Responses', values: a.responses_by_day.map((d) => d.total) },
        { label: 'Completed', values: a.responses_by_day.map((d) => d.completed) },
      ] },
    ];
    const titles = new Map(s.questions.map((q) => [q.question_id, q.title]));
    out.push({ id: 'funnel', kind: 'hbar', labels: a.question_drop_off.map((q) => titles.get(q.question_id) ?? q.question_id), series: [{ label: 'Reached', values: a.question_drop_off.map((q) => q.reached) }] });
    for (const q of s.questions) {
      if (q.kind === 'choices' && q.choices) out.push({ id: q.question_id, kind: 'hbar', labels: q.choices.map((c) => choiceLabel(q, c.value)), series: [{ label: 'Responses', values: q.choices.map((c) => c.count) }] });
      if (q.kind === 'scale' && q.histogram) out.push({ id: q.question_id, kind: 'bar', labels: q.histogram.map((b) => String(b.value)), series: [{ label: 'Responses', values: q.histogram.map((b) => b.count) }] });
      if (q.kind === 'date' && q.by_day && q.by_day.length) out.push({ id: q.question_id, kind: 'bar', labels: q.by_day.map((b) => b.date), series: [{ label: 'Answers', values: q.by_day.map((b) => b.count) }] });
    }
    return out;
  }

  protected override async updated(changed: PropertyValues): Promise<void> {
    if (!changed.has('analytics') && !changed.has('summaries')) return;
    const list = this.charts();
    if (!list.length) return;
    const { drawChart } = await import('./charts');
    for (const c of list) {
      const canvas = this.renderRoot.querySelector<HTMLCanvasElement>(`canvas[data-chart="${CSS.escape(c.id)}"]`);
      if (canvas) drawChart(canvas, c.kind, c.labels, c.series);
    }
  }

  private table(caption: string, head: string[], rows: Array<Array<string | number>>) {
    return html`<details><summary>Show the numbers</summary><table><caption class="sr-only">${caption}</caption>
      <thead><tr>${head.map((h, i) => html`<th scope="col" class=${i ? 'num' : ''}>${h}</th>`)}</tr></thead>
      <tbody>${rows.map((r) => html`<tr>${r.map((c, i) => (i ? html`<td class="num">${c}</td>` : html`<th scope="row">${c}</th>`))}</tr>`)}</tbody></table></details>`;
  }

  private canvas(id: string, label: string, tall = false) {
    return html`<div class="chart ${tall ? 'tall' : ''}"><canvas data-chart=${id} role="img" aria-label=${label}></canvas></div>`;
  }

  private question(q: QuestionSummary) {
    const head = html`<div class="qhead"><h3>${q.title}</h3><span class="muted">${q.answered} answered</span></div>`;
    if (q.kind === 'choices' && q.choices) {
      return html`${head}${this.canvas(q.question_id, `Bar chart of the answers to ${q.title}; the numbers are in the table below`, q.choices.length > 6)}
        ${this.table(`Answers to ${q.title}`, ['Answer', 'Responses', 'Share'], q.choices.map((c) => [choiceLabel(q, c.value), c.count, `${c.share} %`]))}`;
    }
    if (q.kind === 'scale' && q.histogram) {
      return html`${head}<div class="figures"><span>Mean <b>${q.mean ?? '—'}</b></span>${q.nps !== undefined ? html`<span>NPS <b>${q.nps ?? '—'}</b></span>` : nothing}</div>
        ${this.canvas(q.question_id, `Histogram of the answers to ${q.title}; the numbers are in the table below`)}
        ${this.table(`Answers to ${q.title}`, ['Value', 'Responses', 'Share'], q.histogram.map((b) => [b.value, b.count, `${b.share} %`]))}`;
    }
    if (q.kind === 'number') {
      return html`${head}<div class="figures"><span>Min <b>${q.min ?? '—'}</b></span><span>Median <b>${q.median ?? '—'}</b></span><span>Max <b>${q.max ?? '—'}</b></span></div>`;
    }
    if (q.kind === 'date' && q.by_day) {
      if (!q.by_day.length) return html`${head}<p class="muted">No answers yet.</p>`;
      return html`${head}${this.canvas(q.question_id, `Answers to ${q.title} per date; the numbers are in the table below`)}
        ${this.table(`Answers to ${q.title} per date`, ['Date', 'Answers'], q.by_day.map((b) => [b.date, b.count]))}`;
    }
    if (q.kind === 'text' && q.latest) {
      return html`${head}${q.latest.length
        ? html`<p class="muted">Latest answers (search them all in Responses):</p><ul class="latest">${q.latest.map((l) => html`<li>${l.value}<br /><span class="muted">${new Date(l.submitted_at).toLocaleString()}</span></li>`)}</ul>`
        : html`<p class="muted">No answers yet.</p>`}`;
    }
    return head;
  }

  override render() {
    const a = this.analytics;
    const s = this.summaries;
    if (!a || !s) return html`<p class="muted" role="status">Loading the summary…</p>`;
    const titles = new Map(s.questions.map((q) => [q.question_id, q.title]));
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
            ${this.table('Responses per day', ['Day', 'Responses', 'Completed'], a.responses_by_day.map((d) => [d.date, d.total, d.completed]))}`
          : html`<p class="muted">No responses in this period.</p>`}
      </section>
      ${a.question_drop_off.length
        ? html`<section class="card qcard" aria-labelledby="h-funnel"><h2 id="h-funnel">Drop-off</h2>
            ${this.canvas('funnel', 'Bar chart of how many respondents reached each question; the numbers are in the table below', a.question_drop_off.length > 6)}
            ${this.table('Drop-off per question', ['Question', 'Reached', 'Answered'], a.question_drop_off.map((q) => [titles.get(q.question_id) ?? q.question_id, q.reached, q.answered]))}</section>`
        : nothing}
      <h2>Questions</h2>
      ${s.questions.map((q) => html`<section class="card qcard">${this.question(q)}</section>`)}
    </div>`;
  }
}
customElements.get('fl-results-summary') || customElements.define('fl-results-summary', FlResultsSummary);
