import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Condition, ConditionOp } from '../../../../core/src/logic/conditions.js';
import type { LogicJump } from '../../../../core/src/logic/jumps.js';
import { ANY_OP_LABEL, operatorsFor } from './logic/operators';
import { conditionValue, defaultValue, valueFits, type TestedAnswer } from './logic/condition-value';
import './logic/logic-map';
import { actionRows } from './logic/action-rows';
import type { MapQuestion } from './logic/logic-map';

/** What the logic editor offers to test and to jump to. */
export interface LogicQuestion {
  id: string;
  title: string;
  type: string;
  choices?: string[];
}

const short = (s: string, n = 48) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/**
 * `<fl-logic-editor>`: logic jumps (docs/decisions.md, "Logic and validations") of one question, or the form's
 * start jumps when `self` is empty. Tested fields and targets are chosen from lists: earlier questions and
 * hidden fields to test, later questions or the thank-you screen to go to. Each condition offers only the
 * tests that fit the tested answer's kind (./logic/operators.ts). Announces `fl-jumps` with the new list.
 */
export class FlLogicEditor extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 0.75rem; min-width: 0; }
      .jump { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; display: grid; gap: 0.6rem; min-width: 0; }
      /* Each condition wraps its fields instead of squeezing them: nothing overlaps at 390 px. */
      .cond { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: flex-end; padding: 0.5rem; border-radius: var(--_radius); background: var(--_surface-2, rgba(127, 127, 127, 0.06)); min-width: 0; }
      .cond > .field, .cond > .range, .cond > fieldset { flex: 1 1 6rem; min-width: 0; }
      /* The tested question's name is the longest: it takes the room, so "This question" is never cut and the
         remove button stays on the row at 1366 px. */
      .cond > .field:first-child { flex: 2 1 10rem; }
      .cond > button { flex: none; }
      .range { display: flex; gap: 0.5rem; min-width: 0; }
      .range > .field { flex: 1 1 0; min-width: 0; }
      label.field { min-width: 0; }
      select, input:not([type='checkbox']) { width: 100%; min-width: 0; max-width: 100%; box-sizing: border-box; }
      fieldset.set { border: 1px solid var(--_border); border-radius: var(--_radius); margin: 0; padding: 0.4rem 0.6rem; display: flex; flex-wrap: wrap; gap: 0.3rem 0.9rem; }
      fieldset.set legend { font-size: 0.875rem; font-weight: 600; padding: 0 0.2rem; }
      .check { display: inline-flex; gap: 0.35rem; align-items: center; font-size: 0.875rem; overflow-wrap: anywhere; }
      .head { display: flex; justify-content: space-between; align-items: center; gap: 0.5rem; flex-wrap: wrap; }
      .join { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
      .actions { display: flex; gap: 0.5rem; flex-wrap: wrap; }
      .sub { margin: 0; font-weight: 600; font-size: 0.875rem; }
      dialog { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 1rem; width: min(40rem, calc(100vw - 2rem)); max-height: calc(100vh - 2rem); box-sizing: border-box; color: var(--_text); background: var(--_bg, #fff); }
      dialog::backdrop { background: rgba(0, 0, 0, 0.35); }
      dialog h2 { margin: 0 0 0.75rem; font-size: 1.1rem; }
      dialog .close { display: flex; justify-content: flex-end; margin-top: 0.75rem; }
    `,
  ];
  static override properties = { jumps: { attribute: false }, self: {}, tested: { attribute: false }, targets: { attribute: false }, hiddenFields: { attribute: false }, label: {}, allQuestions: { attribute: false }, variables: { attribute: false }, mapOpen: { state: true } };
  /** The map is drawn only while its dialog is open: at 200 questions it is most of an edit's work otherwise. */
  mapOpen = false;
  jumps: LogicJump[] = [];
  /** The question the jumps belong to; '' for start jumps. */
  self = '';
  /** Questions whose answers may be tested (this one and earlier ones). */
  tested: LogicQuestion[] = [];
  /** Questions that may be jumped to (later ones). */
  targets: LogicQuestion[] = [];
  hiddenFields: string[] = [];
  label = 'Logic jumps';
  /** Every question of the form with its jumps, for the logic map; empty: no map button. */
  allQuestions: MapQuestion[] = [];
  /** The form's declared variable names, offered to the rules' actions. */
  variables: string[] = [];

  private emit(jumps: LogicJump[]) {
    this.dispatchEvent(new CustomEvent('fl-jumps', { detail: jumps, bubbles: true, composed: true }));
  }

  private editJump(i: number, patch: Partial<LogicJump>) {
    this.emit(this.jumps.map((j, k) => (k === i ? { ...j, ...patch } : j)));
  }

  /** "Go on" (value '') leaves the rule without `to`: it only runs its actions. */
  private setTarget(i: number, to: string) {
    const { to: _old, ...rest } = this.jumps[i]!;
    this.emit(this.jumps.map((j, k) => (k === i ? (to ? { ...rest, to } : rest) : j)));
  }

  /** A rule without actions must jump (the API requires `to` then): removing the last action brings one back. */
  private setActions(i: number, actions: NonNullable<LogicJump['actions']>) {
    const { actions: _old, ...rest } = this.jumps[i]!;
    const next: LogicJump = actions.length ? { ...rest, actions } : rest;
    if (!actions.length && next.to === undefined) next.to = this.targets[0]?.id ?? 'end';
    this.emit(this.jumps.map((j, k) => (k === i ? next : j)));
  }

  /** The answer a condition's field names: a question's kind and choices, or text for a hidden field. */
  private answerOf(field: string): TestedAnswer | undefined {
    if (field.startsWith('hidden:')) return { type: 'hidden' };
    return this.tested.find((x) => x.id === field);
  }

  private editCond(i: number, c: number, patch: Partial<Condition>) {
    const j = this.jumps[i]!;
    const conditions = (j.conditions ?? []).map((x, k) => {
      if (k !== c) return x;
      const next: Condition = { ...x, ...patch };
      if (next.field === undefined) delete next.field;
      const q = this.answerOf(next.field ?? this.self);
      // A new field keeps its test only when the field's kind offers it; a test keeps its value only when it fits.
      if ('field' in patch && !operatorsFor(q?.type ?? '').some((o) => o.op === next.op)) next.op = operatorsFor(q?.type ?? '')[0]!.op;
      if (!valueFits(q, next.op, next.value)) {
        const v = defaultValue(q, next.op);
        if (v === undefined) delete next.value;
        else next.value = v;
      }
      return next;
    });
    this.editJump(i, { conditions });
  }

  private defaultCondition(): Condition {
    const field = this.self || this.tested[0]?.id || (this.hiddenFields[0] ? `hidden:${this.hiddenFields[0]}` : '');
    const q = this.answerOf(field);
    const op = operatorsFor(q?.type ?? '')[0]!.op;
    const value = defaultValue(q, op);
    return { ...(field && field !== this.self ? { field } : {}), op, ...(value === undefined ? {} : { value }) };
  }

  private renderCondition(i: number, c: number, cond: Condition, conditions: Condition[]) {
    const field = cond.field ?? this.self;
    const q = this.answerOf(field);
    const ops = operatorsFor(q?.type ?? '');
    const offered = ops.some((o) => o.op === cond.op);
    const name = `Condition ${c + 1} of jump ${i + 1}`;
    return html`<div class="cond" role="group" aria-label=${name}>
      <label class="field">Answer to<select @change=${(e: Event) => { const v = (e.target as HTMLSelectElement).value; this.editCond(i, c, { field: v === this.self ? undefined : v }); }}>
        ${this.tested.map((t) => html`<option value=${t.id} ?selected=${field === t.id}>${t.id === this.self ? 'This question' : short(t.title)}</option>`)}
        ${this.hiddenFields.map((h) => html`<option value="hidden:${h}" ?selected=${field === `hidden:${h}`}>Hidden field ${h}</option>`)}
      </select></label>
      <label class="field">Test<select @change=${(e: Event) => this.editCond(i, c, { op: (e.target as HTMLSelectElement).value as ConditionOp })}>
        ${ops.map((o) => html`<option value=${o.op} ?selected=${o.op === cond.op}>${o.label}</option>`)}
        ${offered ? nothing : html`<option value=${cond.op} selected>${ANY_OP_LABEL[cond.op] ?? cond.op} (set outside the builder)</option>`}
      </select></label>
      ${conditionValue(q, cond, name, (value) => this.editCond(i, c, { value }))}
      <button class="btn icon small danger" type="button" aria-label="Remove condition ${c + 1} of jump ${i + 1}" @click=${() => this.editJump(i, { conditions: conditions.filter((_x, k) => k !== c) })}>✕</button>
    </div>`;
  }

  private renderJump(j: LogicJump, i: number) {
    const conditions = j.conditions ?? [];
    const lost = j.to !== undefined && j.to !== 'end' && !this.targets.some((q) => q.id === j.to);
    return html`<div class="jump" role="group" aria-label="Jump ${i + 1}">
      <div class="head"><strong>${i === 0 ? 'If' : 'Else if'}</strong>
        <button class="btn small danger" type="button" @click=${() => this.emit(this.jumps.filter((_x, k) => k !== i))}>Remove jump ${i + 1}</button></div>
      ${conditions.length > 1
        ? html`<label class="field join">Conditions joined by<select aria-label="Jump ${i + 1}: conditions joined by" @change=${(e: Event) => this.editJump(i, { match: (e.target as HTMLSelectElement).value as 'all' | 'any' })}>
            <option value="all" ?selected=${j.match !== 'any'}>all (every one holds)</option><option value="any" ?selected=${j.match === 'any'}>any (one is enough)</option></select></label>`
        : nothing}
      ${conditions.map((cond, c) => this.renderCondition(i, c, cond, conditions))}
      ${conditions.length === 0 ? html`<p class="muted">No condition: this jump always applies.</p>` : nothing}
      <div><button class="btn small" type="button" ?disabled=${conditions.length >= 20} @click=${() => this.editJump(i, { conditions: [...conditions, this.defaultCondition()] })}>Add a condition</button></div>
      ${actionRows(j.actions ?? [], i, this.variables, (actions) => this.setActions(i, actions))}
      ${lost ? html`<p class="error-text" role="alert">This jump goes to a question that is no longer after this one: choose another target. The form is not saved until then.</p>` : nothing}
      <label class="field">Then<select aria-label="Jump ${i + 1}: then" @change=${(e: Event) => this.setTarget(i, (e.target as HTMLSelectElement).value)}>
        ${lost ? html`<option value="" selected disabled>Choose where to go</option>` : nothing}
        ${(j.actions ?? []).length ? html`<option value="" ?selected=${j.to === undefined}>Go on (no jump): only the actions</option>` : nothing}
        ${this.targets.map((q) => html`<option value=${q.id} ?selected=${q.id === j.to}>Go to ${short(q.title)}</option>`)}
        <option value="end" ?selected=${j.to === 'end'}>Show the thank-you screen (submit)</option>
      </select></label>
    </div>`;
  }

  private async openMap() {
    this.mapOpen = true;
    await this.updateComplete;
    this.dialog?.showModal();
  }

  private get dialog() {
    return this.renderRoot.querySelector('dialog');
  }

  private renderMap() {
    if (this.allQuestions.length === 0) return nothing;
    return html`<dialog aria-labelledby="map-title" @fl-goto-question=${() => this.dialog?.close()} @close=${() => (this.mapOpen = false)}>
      <h2 id="map-title">Logic map</h2>
      ${this.mapOpen ? html`<fl-logic-map .questions=${this.allQuestions} current=${this.self}></fl-logic-map>` : nothing}
      <div class="close"><button class="btn" type="button" @click=${() => this.dialog?.close()}>Close</button></div>
    </dialog>`;
  }

  override render() {
    return html`${this.jumps.map((j, i) => this.renderJump(j, i))}
      ${this.jumps.length === 0 ? html`<p class="muted">${this.self ? 'Respondents go on to the next question.' : 'Respondents start at the first question.'}</p>` : nothing}
      <div class="actions"><button class="btn small" type="button" ?disabled=${this.jumps.length >= 200}
        @click=${() => this.emit([...this.jumps, { conditions: [this.defaultCondition()], to: this.targets[0]?.id ?? 'end' }])}>Add a jump</button>
        ${this.allQuestions.length ? html`<button class="btn small" type="button" aria-haspopup="dialog" @click=${() => this.openMap()}>Show the logic map</button>` : nothing}</div>
      ${this.renderMap()}`;
  }
}
customElements.get('fl-logic-editor') || customElements.define('fl-logic-editor', FlLogicEditor);
