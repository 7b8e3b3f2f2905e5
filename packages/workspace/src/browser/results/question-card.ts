import { html, nothing, type TemplateResult } from 'lit';
import type { QuestionSummary } from '../../data/results';
import { barList, npsBar, type BarRow } from './summary-bars';

/*
 * One question's card on Results > Summary (docs/workspace.md, "Results"), by the summary's `kind`: choices
 * as sorted bars (top 10, "n more"), scales with their mean, NPS split and weekly trend, number statistics
 * and bins, a date timeline, the latest texts, the newest files, and a sub-card per sub-question of a group.
 * Every chart has its "Show the numbers" table.
 */

type Sub = NonNullable<QuestionSummary['sub_questions']>[number];
type Summary = QuestionSummary | Sub;

export interface CardContext {
  expanded: Set<string>;
  toggle(id: string): void;
  /** A canvas for a chart drawn by chart.js after render (by-day, the NPS trend, date timelines). */
  canvas(id: string, label: string): TemplateResult;
  /** Switches to the Responses view ("See all"). */
  showResponses(): void;
}

export const choiceLabel = (q: Summary, v: string) => (q.type === 'yes_no' ? (v === 'true' ? 'Yes' : v === 'false' ? 'No' : v) : v);
const IMAGE = /\.(png|jpe?g|gif|webp|avif)$/i;

export function numbersTable(caption: string, head: string[], rows: Array<Array<string | number>>): TemplateResult {
  return html`<details><summary>Show the numbers</summary><table><caption class="sr-only">${caption}</caption>
    <thead><tr>${head.map((h, i) => html`<th scope="col" class=${i ? 'num' : ''}>${h}</th>`)}</tr></thead>
    <tbody>${rows.map((r) => html`<tr>${r.map((c, i) => (i ? html`<td class="num">${c}</td>` : html`<th scope="row">${c}</th>`))}</tr>`)}</tbody></table></details>`;
}

/** Choices sorted by count (ties keep the form's order); "other" answers tagged, and listed under the bars. */
function choices(q: Summary, ctx: CardContext, id: string) {
  const list = q.choices ?? [];
  const rows: BarRow[] = list
    .map((c, i) => ({ c, i }))
    .sort((a, b) => b.c.count - a.c.count || a.i - b.i)
    .map(({ c }) => ({ label: choiceLabel(q, c.value), count: c.count, share: c.share, ...(c.other ? { tag: 'other' } : {}) }));
  const others = list.filter((c) => c.other);
  return html`${barList(rows, { id, expanded: ctx.expanded.has(id), toggle: () => ctx.toggle(id), label: `Answers to ${q.title}, most picked first` })}
    ${others.length ? html`<p class="muted small">"Other" answers: ${others.map((o, i) => html`${i ? ', ' : ''}<span class="other">${o.value}</span> (${o.count})`)}</p>` : nothing}
    ${numbersTable(`Answers to ${q.title}`, ['Answer', 'Responses', 'Share'], list.map((c) => [choiceLabel(q, c.value) + (c.other ? ' (other)' : ''), c.count, `${c.share} %`]))}`;
}

function scale(q: Summary, ctx: CardContext, id: string) {
  const hist = q.histogram ?? [];
  const rows: BarRow[] = hist.map((b) => ({ label: String(b.value), count: b.count, share: b.share }));
  const trend = q.nps_by_week ?? [];
  return html`<div class="figures"><span>Mean <b>${q.mean ?? '—'}</b></span>${q.nps !== undefined ? html`<span>NPS <b>${q.nps ?? '—'}</b></span>` : nothing}</div>
    ${q.nps_split ? npsBar(q.nps_split) : nothing}
    ${barList(rows, { id, expanded: true, toggle: () => undefined, limit: rows.length, label: `How many gave each score to ${q.title}` })}
    ${numbersTable(`Answers to ${q.title}`, ['Value', 'Responses', 'Share'], hist.map((b) => [b.value, b.count, `${b.share} %`]))}
    ${trend.some((w) => w.answered > 0)
      ? html`<h4>NPS by week</h4>${ctx.canvas(`trend-${id}`, `Line chart of the NPS of ${q.title} per week; the numbers are in the table below`)}
        ${numbersTable(`NPS of ${q.title} per week`, ['Week of', 'Answers', 'NPS'], trend.map((w) => [w.week, w.answered, w.nps ?? '—']))}`
      : nothing}`;
}

function numbers(q: Summary, ctx: CardContext, id: string) {
  const bins = q.bins ?? [];
  const rows: BarRow[] = bins.map((b) => ({ label: b.from === b.to ? String(b.from) : `${b.from} – ${b.to}`, count: b.count, share: b.share }));
  return html`<div class="figures"><span>Min <b>${q.min ?? '—'}</b></span><span>Median <b>${q.median ?? '—'}</b></span><span>Mean <b>${q.mean ?? '—'}</b></span><span>Max <b>${q.max ?? '—'}</b></span></div>
    ${rows.length
      ? html`${barList(rows, { id, expanded: true, toggle: () => undefined, limit: rows.length, label: `Histogram of the answers to ${q.title}` })}
        ${numbersTable(`Histogram of ${q.title}`, ['From – to', 'Responses', 'Share'], rows.map((r) => [r.label, r.count, `${r.share} %`]))}`
      : nothing}`;
}

function dates(q: Summary, ctx: CardContext, id: string) {
  const days = q.by_day ?? [];
  if (!days.length) return html`<p class="muted">No answers yet.</p>`;
  return html`${ctx.canvas(id, `Timeline of the dates given to ${q.title}; the numbers are in the table below`)}
    ${numbersTable(`Answers to ${q.title} per date`, ['Date', 'Answers'], days.map((b) => [b.date, b.count]))}`;
}

function texts(q: Summary, ctx: CardContext) {
  const latest = q.latest ?? [];
  if (!latest.length) return html`<p class="muted">No answers yet.</p>`;
  return html`<p class="muted small">Latest answers</p>
    <ul class="latest">${latest.map((l) => html`<li>${l.value}<br /><span class="muted small">${new Date(l.submitted_at).toLocaleString()}</span></li>`)}</ul>
    ${q.answered > latest.length ? html`<button class="btn small more" type="button" @click=${() => ctx.showResponses()}>See all ${q.answered} answers</button>` : nothing}`;
}

function files(q: Summary & { files?: QuestionSummary['files'] }) {
  const list = q.files ?? [];
  if (!list.length) return html`<p class="muted">No files yet.</p>`;
  return html`<ul class="files">${list.map(
    (f) => html`<li>${IMAGE.test(f.name) ? html`<img src=${f.url} alt="" loading="lazy" />` : html`<span class="fileicon" aria-hidden="true">${(f.name.split('.').pop() ?? '').slice(0, 4).toUpperCase() || 'FILE'}</span>`}
      <a href=${f.url} download=${f.name}>${f.name}</a></li>`,
  )}</ul>`;
}

/** The body of a card (after its heading) for a question or a group's sub-question. */
export function cardBody(q: Summary, ctx: CardContext, id: string): TemplateResult {
  // Nothing to chart yet: one line, not a card of empty bars.
  if (q.answered === 0) return html`<p class="muted">No answers yet.</p>`;
  if (q.kind === 'choices') return choices(q, ctx, id);
  if (q.kind === 'scale') return scale(q, ctx, id);
  if (q.kind === 'number') return numbers(q, ctx, id);
  if (q.kind === 'date') return dates(q, ctx, id);
  if (q.kind === 'text') return texts(q, ctx);
  if ('files' in q && q.files) return files(q);
  const subs = (q as QuestionSummary).sub_questions;
  if (subs) {
    const sample = (q as QuestionSummary).sub_questions_sample ?? 0;
    return html`<p class="muted small">From the newest ${sample} response${sample === 1 ? '' : 's'} that answered it.</p>
      <div class="subcards">${subs.map((s) => html`<section class="subcard" aria-label=${s.title}><div class="qhead"><h4>${s.title}</h4><span class="muted small">${s.answered} answered</span></div>
        ${cardBody(s, ctx, `${id}-${s.question_id}`)}</section>`)}</div>`;
  }
  return html``;
}
