import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { resultsStyles } from './results-styles';
import type { Question } from '../../data/forms';
import { filterOpsOf } from '../../../../core/src/responses/filter-ops.js';
import type { ConditionOp } from '../../../../core/src/logic/conditions.js';
import { ANY_OP_LABEL, valueShape } from '../builder/logic/operators';

/*
 * `<fl-filter-bar>`: the results' filters (docs/workspace.md, "Results"): conditions on answers (question,
 * test, value), joined by all or any, a date range, completion and version. The operators are the server's
 * per kind (core's filter-ops.ts); the words are the logic editor's, for the kinds where they differ said
 * here. It owns no state: each change is announced as `fl-filter` with the whole new state, which
 * `<formloom-results>` keeps in the URL and sends to the summary, the table and the exports.
 */

export interface FilterCondition {
  question_id: string;
  op: ConditionOp;
  /** One value, [low, high] for `between`, the choices for `is_any_of`; absent for the presence tests. */
  value?: unknown;
}

export interface FilterState {
  since: string;
  until: string;
  completed: '' | 'true' | 'false';
  version: string;
  /** The language answered in (docs/languages.md); '' for all. */
  language: string;
  match: 'all' | 'any';
  conditions: FilterCondition[];
}

export const EMPTY_FILTER: FilterState = { since: '', until: '', completed: '', version: '', language: '', match: 'all', conditions: [] };

/** A language's English name ("German"), or its tag. */
function languageName(tag: string): string {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

const NUMERIC = new Set(['number', 'rating', 'opinion_scale']);
const CHOICES = new Set(['multiple_choice', 'dropdown']);

/** The words of a test for a kind: the logic editor's, with symbols for numbers, before/after for dates, "is empty" for every kind. */
export function opLabel(kind: string, op: ConditionOp): string {
  if (op === 'is_not_answered') return 'is empty';
  if (op === 'is_answered') return 'is not empty';
  if (NUMERIC.has(kind)) {
    const symbols: Partial<Record<ConditionOp, string>> = { equals: '=', not_equals: '≠', greater_than: '>', less_than: '<', greater_or_equal: '≥ at least', less_or_equal: '≤ at most' };
    if (symbols[op]) return symbols[op]!;
  }
  if (kind === 'date') {
    const words: Partial<Record<ConditionOp, string>> = { less_than: 'is before', greater_than: 'is after', less_or_equal: 'is on or before', greater_or_equal: 'is on or after' };
    if (words[op]) return words[op]!;
  }
  return ANY_OP_LABEL[op];
}

const choicesOf = (q: Question) => ((q.properties as { choices?: Array<{ label?: string }> }).choices ?? []).map((c) => String(c.label ?? ''));

/** Whether a condition has what its test needs (only complete ones are applied). */
export function isComplete(c: FilterCondition): boolean {
  const shape = valueShape(c.op);
  if (shape === 'none') return true;
  if (shape === 'range') return Array.isArray(c.value) && c.value.length === 2 && c.value.every((v) => v !== '' && v !== undefined && v !== null);
  if (shape === 'set') return Array.isArray(c.value) && c.value.length > 0;
  return c.value !== undefined && c.value !== null && c.value !== '';
}

/** Questions a filter can test, in form order. */
export const filterable = (questions: Question[]) => questions.filter((q) => filterOpsOf(q.type).length > 0);

export class FlFilterBar extends LitElement {
  static override styles = [
    tokens,
    controls,
    resultsStyles,
    css`
      fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.6rem 0.75rem 0.75rem; margin: 0; display: grid; gap: 0.6rem; background: var(--_surface); }
      legend { font-weight: 600; font-size: 0.9375rem; padding: 0 0.3rem; }
      .row { display: flex; gap: 0.6rem; align-items: end; flex-wrap: wrap; }
      .row label.field { min-width: 0; flex: 1 1 8.5rem; }
      /* A date input's own minimum width would push the second one out of a phone's row. */
      .row input, .row select, .cond input, .cond select { min-width: 0; width: 100%; box-sizing: border-box; }
      .cond { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1.3fr) minmax(0, 2fr) auto; gap: 0.5rem; align-items: end; padding-bottom: 0.6rem; border-bottom: 1px solid var(--_border); }
      .cond:last-of-type { border-bottom: 0; padding-bottom: 0; }
      .cond label.field { min-width: 0; }
      .pair { display: grid; grid-template-columns: 1fr 1fr; gap: 0.4rem; }
      .set { display: flex; flex-wrap: wrap; gap: 0.3rem 0.9rem; border: 0; padding: 0; margin: 0; min-width: 0; }
      .set legend { font-size: 0.875rem; padding: 0; margin-bottom: 0.25rem; }
      .set label { display: inline-flex; gap: 0.35rem; align-items: center; font-size: 0.875rem; min-height: 2rem; }
      .hint { font-size: 0.8125rem; color: var(--_muted); margin: 0; }
      .match { display: flex; gap: 0.4rem; align-items: center; flex-wrap: wrap; font-size: 0.875rem; }
      .match select { width: auto; }
      .actions { display: flex; gap: 0.5rem; flex-wrap: wrap; }
      @media (max-width: 640px) {
        .cond { grid-template-columns: minmax(0, 1fr); }
        .cond .remove { justify-self: start; }
      }
    `,
  ];
  static override properties = { questions: { attribute: false }, versions: { attribute: false }, languages: { attribute: false }, state: { attribute: false }, showCompletion: { type: Boolean, attribute: 'show-completion' } };
  questions: Question[] = [];
  versions: number[] = [];
  /** The form's languages, default first; the filter shows when there are several (docs/languages.md). */
  languages: string[] = [];
  state: FilterState = EMPTY_FILTER;
  showCompletion = true;

  private emit(next: Partial<FilterState>) {
    this.dispatchEvent(new CustomEvent<FilterState>('fl-filter', { detail: { ...this.state, ...next }, bubbles: true, composed: true }));
  }

  private setCondition(i: number, patch: Partial<FilterCondition>) {
    const conditions = this.state.conditions.map((c, k) => {
      if (k !== i) return c;
      const next: FilterCondition = { ...c, ...patch };
      const q = this.questions.find((x) => x.id === next.question_id);
      const ops = filterOpsOf(q?.type ?? '');
      if ('question_id' in patch) {
        next.op = ops.includes(c.op) && q?.type === this.questions.find((x) => x.id === c.question_id)?.type ? c.op : ops[0]!;
        delete next.value;
      }
      if ('op' in patch && valueShape(next.op) !== valueShape(c.op)) delete next.value;
      return next;
    });
    this.emit({ conditions });
  }

  private async add() {
    const q = filterable(this.questions)[0];
    if (!q) return;
    const before = this.state.conditions.length;
    this.emit({ conditions: [...this.state.conditions, { question_id: q.id, op: filterOpsOf(q.type)[0]! }] });
    // The new condition's first control takes the focus, so keyboard users go on from there; it exists once
    // the parent has handed the new state back (a frame or two).
    for (let i = 0; i < 10 && this.state.conditions.length === before; i++) await new Promise((r) => requestAnimationFrame(r));
    await this.updateComplete;
    const rows = this.renderRoot.querySelectorAll<HTMLSelectElement>('.cond select[name="question"]');
    rows[rows.length - 1]?.focus();
  }

  private removeCondition(i: number) {
    this.emit({ conditions: this.state.conditions.filter((_, k) => k !== i) });
    // The focus moves to "Add condition" rather than being lost with the removed row.
    requestAnimationFrame(() => void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>('button.add')?.focus()));
  }

  private valueControl(c: FilterCondition, i: number, q: Question) {
    const shape = valueShape(c.op);
    if (shape === 'none') return html`<p class="hint">No value needed</p>`;
    const id = `v-${i}`;
    const kind = q.type;
    const inputType = NUMERIC.has(kind) ? 'number' : kind === 'date' ? 'date' : 'text';
    const one = (value: unknown, set: (v: string) => void, label: string) =>
      kind === 'yes_no'
        ? html`<label class="field">${label}<select @change=${(e: Event) => set((e.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${value === undefined}>Choose…</option>
            <option value="true" ?selected=${value === true || value === 'true'}>Yes</option>
            <option value="false" ?selected=${value === false || value === 'false'}>No</option></select></label>`
        : CHOICES.has(kind) && (c.op === 'equals' || c.op === 'not_equals')
          ? html`<label class="field">${label}<select @change=${(e: Event) => set((e.target as HTMLSelectElement).value)}>
              <option value="" ?selected=${!value}>Choose…</option>
              ${choicesOf(q).map((l) => html`<option ?selected=${value === l}>${l}</option>`)}</select></label>`
          : html`<label class="field">${label}<input type=${inputType} .value=${value === undefined || value === null ? '' : String(value)} maxlength="200"
              @change=${(e: Event) => set((e.target as HTMLInputElement).value)} /></label>`;
    const typed = (v: string): unknown => (v === '' ? undefined : NUMERIC.has(kind) ? Number(v) : kind === 'yes_no' ? v === 'true' : v);
    if (shape === 'range') {
      const [lo, hi] = Array.isArray(c.value) ? c.value : ['', ''];
      return html`<div class="pair" id=${id}>
        ${one(lo, (v) => this.setCondition(i, { value: [typed(v) ?? '', hi ?? ''] }), 'From')}
        ${one(hi, (v) => this.setCondition(i, { value: [lo ?? '', typed(v) ?? ''] }), 'To')}</div>`;
    }
    if (shape === 'set') {
      const picked = new Set(Array.isArray(c.value) ? (c.value as string[]) : []);
      return html`<fieldset class="set" id=${id}><legend>Values</legend>
        ${choicesOf(q).map(
          (l) => html`<label><input type="checkbox" .checked=${picked.has(l)} @change=${(e: Event) => {
            const next = new Set(picked);
            if ((e.target as HTMLInputElement).checked) next.add(l);
            else next.delete(l);
            this.setCondition(i, { value: choicesOf(q).filter((x) => next.has(x)) });
          }} />${l}</label>`,
        )}</fieldset>`;
    }
    return one(c.value, (v) => this.setCondition(i, { value: typed(v) }), 'Value');
  }

  private condition(c: FilterCondition, i: number) {
    const list = filterable(this.questions);
    const q = list.find((x) => x.id === c.question_id);
    if (!q) return nothing;
    const n = i + 1;
    return html`<div class="cond" role="group" aria-label=${`Condition ${n}`}>
      <label class="field">Question<select name="question" @change=${(e: Event) => this.setCondition(i, { question_id: (e.target as HTMLSelectElement).value })}>
        ${list.map((x, k) => html`<option value=${x.id} ?selected=${x.id === c.question_id}>${x.title || `Question ${k + 1}`}</option>`)}</select></label>
      <label class="field">Test<select @change=${(e: Event) => this.setCondition(i, { op: (e.target as HTMLSelectElement).value as ConditionOp })}>
        ${filterOpsOf(q.type).map((op) => html`<option value=${op} ?selected=${op === c.op}>${opLabel(q.type, op)}</option>`)}</select></label>
      <div>${this.valueControl(c, i, q)}</div>
      <button class="btn small danger remove" type="button" aria-label=${`Remove condition ${n}`} @click=${() => this.removeCondition(i)}>Remove</button>
    </div>`;
  }

  override render() {
    const s = this.state;
    const active = s.conditions.length > 0 || s.since || s.until || s.completed || s.version || s.language;
    const canAdd = filterable(this.questions).length > 0;
    return html`<fieldset>
      <legend>Filters</legend>
      <div class="row">
        <label class="field">From<input type="date" .value=${s.since} max=${s.until || nothing} @change=${(e: Event) => this.emit({ since: (e.target as HTMLInputElement).value })} /></label>
        <label class="field">To<input type="date" .value=${s.until} min=${s.since || nothing} @change=${(e: Event) => this.emit({ until: (e.target as HTMLInputElement).value })} /></label>
        ${this.showCompletion
          ? html`<label class="field">Completion<select @change=${(e: Event) => this.emit({ completed: (e.target as HTMLSelectElement).value as FilterState['completed'] })}>
              <option value="" ?selected=${s.completed === ''}>All responses</option><option value="true" ?selected=${s.completed === 'true'}>Completed</option>
              <option value="false" ?selected=${s.completed === 'false'}>Partial</option></select></label>`
          : nothing}
        <label class="field">Version<select @change=${(e: Event) => this.emit({ version: (e.target as HTMLSelectElement).value })}>
          <option value="" ?selected=${s.version === ''}>All versions</option>
          ${this.versions.map((v) => html`<option value=${String(v)} ?selected=${s.version === String(v)}>Version ${v}</option>`)}</select></label>
        ${this.languages.length > 1
          ? html`<label class="field">Language<select @change=${(e: Event) => this.emit({ language: (e.target as HTMLSelectElement).value })}>
              <option value="" ?selected=${s.language === ''}>All languages</option>
              ${this.languages.map((l) => html`<option value=${l} ?selected=${s.language === l}>${languageName(l)}</option>`)}</select></label>`
          : nothing}
      </div>
      ${s.conditions.length > 1
        ? html`<div class="match"><label for="match">Show responses that match</label>
            <select id="match" @change=${(e: Event) => this.emit({ match: (e.target as HTMLSelectElement).value as 'all' | 'any' })}>
              <option value="all" ?selected=${s.match === 'all'}>all</option><option value="any" ?selected=${s.match === 'any'}>any</option></select>
            <span>of these conditions</span></div>`
        : nothing}
      ${s.conditions.map((c, i) => this.condition(c, i))}
      ${s.conditions.some((c) => !isComplete(c)) ? html`<p class="hint" role="status">A condition without its value is not applied yet.</p>` : nothing}
      <div class="actions">
        ${canAdd ? html`<button class="btn small add" type="button" @click=${() => void this.add()}>Add condition</button>` : nothing}
        ${active ? html`<button class="btn small" type="button" @click=${() => this.emit({ ...EMPTY_FILTER })}>Clear filters</button>` : nothing}
      </div>
    </fieldset>`;
  }
}
customElements.get('fl-filter-bar') || customElements.define('fl-filter-bar', FlFilterBar);
