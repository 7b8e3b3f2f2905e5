import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { CONDITION_OPS, UNARY_OPS, type Condition, type ConditionOp } from '../../../../core/src/logic/conditions.js';
import type { LogicJump } from '../../../../core/src/logic/jumps.js';

/** What the logic editor offers to test and to jump to. */
export interface LogicQuestion {
  id: string;
  title: string;
  type: string;
  choices?: string[];
}

const OP_LABELS: Record<ConditionOp, string> = {
  equals: 'is',
  not_equals: 'is not',
  contains: 'contains',
  not_contains: 'does not contain',
  begins_with: 'begins with',
  ends_with: 'ends with',
  greater_than: 'is greater than',
  less_than: 'is less than',
  greater_or_equal: 'is at least',
  less_or_equal: 'is at most',
  is_answered: 'is answered',
  is_not_answered: 'is not answered',
};

const short = (s: string, n = 48) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * `<fl-logic-editor>`: logic jumps (docs/decisions.md, "Logic and validations") of one question, or the form's
 * start jumps when `self` is empty. Tested fields and targets are chosen from lists: earlier questions and
 * hidden fields to test, later questions or the end to jump to. Announces `fl-jumps` with the new list.
 */
export class FlLogicEditor extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 0.75rem; }
      .jump { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; display: grid; gap: 0.6rem; }
      .cond { display: grid; grid-template-columns: minmax(0, 1.4fr) minmax(0, 1fr) minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; }
      @media (max-width: 640px) { .cond { grid-template-columns: 1fr 1fr; } }
      .head { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
    `,
  ];
  static override properties = { jumps: { attribute: false }, self: {}, tested: { attribute: false }, targets: { attribute: false }, hiddenFields: { attribute: false }, label: {} };
  jumps: LogicJump[] = [];
  /** The question the jumps belong to; '' for start jumps. */
  self = '';
  /** Questions whose answers may be tested (this one and earlier ones). */
  tested: LogicQuestion[] = [];
  /** Questions that may be jumped to (later ones). */
  targets: LogicQuestion[] = [];
  hiddenFields: string[] = [];
  label = 'Logic jumps';

  private emit(jumps: LogicJump[]) {
    this.dispatchEvent(new CustomEvent('fl-jumps', { detail: jumps, bubbles: true, composed: true }));
  }

  private editJump(i: number, patch: Partial<LogicJump>) {
    this.emit(this.jumps.map((j, k) => (k === i ? { ...j, ...patch } : j)));
  }

  private editCond(i: number, c: number, patch: Partial<Condition>) {
    const j = this.jumps[i]!;
    const conditions = (j.conditions ?? []).map((x, k) => {
      if (k !== c) return x;
      const next: Condition = { ...x, ...patch };
      if (UNARY_OPS.includes(next.op)) delete next.value;
      else if (next.value === undefined) next.value = this.defaultValue(next.field ?? this.self);
      return next;
    });
    this.editJump(i, { conditions });
  }

  /** The value a condition starts with when its test needs one: what the lists would show first. */
  private defaultValue(field: string): string | number | boolean {
    const q = this.tested.find((x) => x.id === field);
    if (q?.type === 'yes_no') return true;
    if (q?.choices?.length) return q.choices[0]!;
    return '';
  }

  private defaultCondition(): Condition {
    const field = this.self || this.tested[0]?.id || (this.hiddenFields[0] ? `hidden:${this.hiddenFields[0]}` : undefined);
    return { ...(field && field !== this.self ? { field } : {}), op: 'is_answered' };
  }

  private valueInput(i: number, c: number, cond: Condition) {
    if (UNARY_OPS.includes(cond.op)) return html`<span></span>`;
    const field = cond.field ?? this.self;
    const q = this.tested.find((x) => x.id === field);
    const label = `Value of condition ${c + 1}`;
    if (q?.type === 'yes_no') {
      return html`<label class="field">Value<select aria-label=${label} @change=${(e: Event) => this.editCond(i, c, { value: (e.target as HTMLSelectElement).value === 'true' })}>
        <option value="true" ?selected=${cond.value === true}>Yes</option><option value="false" ?selected=${cond.value === false}>No</option></select></label>`;
    }
    if (q?.choices?.length && (cond.op === 'equals' || cond.op === 'not_equals' || cond.op === 'contains' || cond.op === 'not_contains')) {
      if (typeof cond.value !== 'string' || !q.choices.includes(cond.value)) queueMicrotask(() => this.editCond(i, c, { value: q.choices![0]! }));
      return html`<label class="field">Value<select aria-label=${label} @change=${(e: Event) => this.editCond(i, c, { value: (e.target as HTMLSelectElement).value })}>
        ${q.choices.map((ch) => html`<option value=${ch} ?selected=${ch === cond.value}>${short(ch)}</option>`)}</select></label>`;
    }
    const numeric = ['greater_than', 'less_than', 'greater_or_equal', 'less_or_equal'].includes(cond.op) || q?.type === 'number' || q?.type === 'rating' || q?.type === 'opinion_scale';
    return html`<label class="field">Value<input aria-label=${label} type=${numeric ? 'number' : 'text'} .value=${cond.value === undefined ? '' : String(cond.value)}
      @input=${(e: Event) => {
        const t = (e.target as HTMLInputElement).value;
        this.editCond(i, c, { value: numeric && t !== '' && Number.isFinite(Number(t)) ? Number(t) : t });
      }} /></label>`;
  }

  private renderJump(j: LogicJump, i: number) {
    const conditions = j.conditions ?? [];
    return html`<div class="jump" role="group" aria-label="Jump ${i + 1}">
      <div class="head"><strong>${i === 0 ? 'If' : 'Else if'}</strong>
        <button class="btn small danger" type="button" @click=${() => this.emit(this.jumps.filter((_x, k) => k !== i))}>Remove jump ${i + 1}</button></div>
      ${conditions.length > 1
        ? html`<label class="field">Conditions to meet<select @change=${(e: Event) => this.editJump(i, { match: (e.target as HTMLSelectElement).value as 'all' | 'any' })}>
            <option value="all" ?selected=${j.match !== 'any'}>All of them</option><option value="any" ?selected=${j.match === 'any'}>Any of them</option></select></label>`
        : nothing}
      ${conditions.map((cond, c) => html`<div class="cond">
        <label class="field">Answer to test<select @change=${(e: Event) => { const v = (e.target as HTMLSelectElement).value; this.editCond(i, c, { field: v === this.self ? undefined : v, value: undefined }); }}>
          ${this.tested.map((q) => html`<option value=${q.id} ?selected=${(cond.field ?? this.self) === q.id}>${q.id === this.self ? 'This question' : short(q.title)}</option>`)}
          ${this.hiddenFields.map((h) => html`<option value="hidden:${h}" ?selected=${cond.field === `hidden:${h}`}>Hidden field ${h}</option>`)}
        </select></label>
        <label class="field">Test<select @change=${(e: Event) => this.editCond(i, c, { op: (e.target as HTMLSelectElement).value as ConditionOp })}>
          ${CONDITION_OPS.map((op) => html`<option value=${op} ?selected=${op === cond.op}>${OP_LABELS[op]}</option>`)}
        </select></label>
        ${this.valueInput(i, c, cond)}
        <button class="btn icon small danger" type="button" aria-label="Remove condition ${c + 1} of jump ${i + 1}" @click=${() => this.editJump(i, { conditions: conditions.filter((_x, k) => k !== c) })}>✕</button>
      </div>`)}
      ${conditions.length === 0 ? html`<p class="muted">No condition: this jump always applies.</p>` : nothing}
      <div><button class="btn small" type="button" ?disabled=${conditions.length >= 20} @click=${() => this.editJump(i, { conditions: [...conditions, this.defaultCondition()] })}>Add a condition</button></div>
      ${j.to !== 'end' && !this.targets.some((q) => q.id === j.to)
        ? html`<p class="error-text" role="alert">This jump goes to a question that is no longer after this one: choose another target. The form is not saved until then.</p>`
        : nothing}
      <label class="field">Then go to<select @change=${(e: Event) => this.editJump(i, { to: (e.target as HTMLSelectElement).value })}>
        ${j.to !== 'end' && !this.targets.some((q) => q.id === j.to) ? html`<option value="" selected disabled>Choose a target</option>` : nothing}
        ${this.targets.map((q) => html`<option value=${q.id} ?selected=${q.id === j.to}>${short(q.title)}</option>`)}
        <option value="end" ?selected=${j.to === 'end'}>The end (submit)</option>
      </select></label>
    </div>`;
  }

  override render() {
    return html`${this.jumps.map((j, i) => this.renderJump(j, i))}
      ${this.jumps.length === 0 ? html`<p class="muted">${this.self ? 'Respondents go on to the next question.' : 'Respondents start at the first question.'}</p>` : nothing}
      <div><button class="btn small" type="button" ?disabled=${this.jumps.length >= 200}
        @click=${() => this.emit([...this.jumps, { conditions: [this.defaultCondition()], to: this.targets[0]?.id ?? 'end' }])}>Add a jump</button></div>`;
  }
}
customElements.get('fl-logic-editor') || customElements.define('fl-logic-editor', FlLogicEditor);
