import { html, nothing, type TemplateResult } from 'lit';
import type { Condition, ConditionOp } from '../../../../../core/src/logic/conditions.js';
import { valueShape } from './operators';

/** What a condition's value field needs to know about the tested answer. */
export interface TestedAnswer {
  type: string;
  choices?: string[];
}

const NUMERIC = ['number', 'rating', 'opinion_scale'];
const short = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The value a condition starts with for a kind and operator: what the lists would show first. */
export function defaultValue(q: TestedAnswer | undefined, op: ConditionOp): Condition['value'] {
  const shape = valueShape(op);
  if (shape === 'none') return undefined;
  if (q?.type === 'yes_no') return true;
  if (shape === 'set') return q?.choices?.length ? [q.choices[0]!] : [''];
  if (q?.choices?.length) return q.choices[0]!;
  const numeric = q ? NUMERIC.includes(q.type) : false;
  if (shape === 'range') return numeric ? [0, 10] : ['', ''];
  return numeric ? 0 : '';
}

/** Whether a stored value still fits the kind and operator (else the editor resets it to the default). */
export function valueFits(q: TestedAnswer | undefined, op: ConditionOp, v: Condition['value']): boolean {
  const shape = valueShape(op);
  if (shape === 'none') return v === undefined;
  if (shape === 'range') return Array.isArray(v) && v.length === 2;
  if (shape === 'set') return Array.isArray(v) && v.length > 0;
  if (Array.isArray(v) || v === undefined) return false;
  if (q?.type === 'yes_no') return typeof v === 'boolean';
  return true;
}

/**
 * The value field(s) of one condition, by the tested answer's kind: Yes/No, a choice, a set of choices
 * (checkboxes), a number, a date, two of them for a range, or text. `name` labels them for screen readers.
 */
export function conditionValue(q: TestedAnswer | undefined, cond: Condition, name: string, set: (v: Condition['value']) => void): TemplateResult | typeof nothing {
  const shape = valueShape(cond.op);
  if (shape === 'none') return nothing;
  if (q?.type === 'yes_no') {
    return html`<label class="field">Answer<select aria-label="${name}: answer" @change=${(e: Event) => set((e.target as HTMLSelectElement).value === 'true')}>
      <option value="true" ?selected=${cond.value === true}>Yes</option><option value="false" ?selected=${cond.value === false}>No</option></select></label>`;
  }
  if (shape === 'set') {
    const chosen = new Set((Array.isArray(cond.value) ? cond.value : []).map(String));
    const choices = q?.choices ?? [];
    const toggle = (ch: string, on: boolean) => {
      const next = choices.filter((x) => (x === ch ? on : chosen.has(x)));
      set(next.length ? next : [ch]);
    };
    return html`<fieldset class="set"><legend>${name}: any of these</legend>
      ${choices.map((ch) => html`<label class="check"><input type="checkbox" .checked=${chosen.has(ch)} @change=${(e: Event) => toggle(ch, (e.target as HTMLInputElement).checked)} /> ${short(ch)}</label>`)}
    </fieldset>`;
  }
  if (q?.choices?.length) {
    return html`<label class="field">Choice<select aria-label="${name}: choice" @change=${(e: Event) => set((e.target as HTMLSelectElement).value)}>
      ${q.choices.map((ch) => html`<option value=${ch} ?selected=${ch === cond.value}>${short(ch)}</option>`)}</select></label>`;
  }
  const numeric = q ? NUMERIC.includes(q.type) : false;
  const type = numeric ? 'number' : q?.type === 'date' ? 'date' : 'text';
  const read = (t: string): string | number => (numeric && t !== '' && Number.isFinite(Number(t)) ? Number(t) : t);
  if (shape === 'range') {
    const [lo, hi] = Array.isArray(cond.value) ? cond.value : ['', ''];
    return html`<div class="range">
      <label class="field">From<input aria-label="${name}: from" type=${type} .value=${String(lo ?? '')} @input=${(e: Event) => set([read((e.target as HTMLInputElement).value), hi ?? ''])} /></label>
      <label class="field">To<input aria-label="${name}: to" type=${type} .value=${String(hi ?? '')} @input=${(e: Event) => set([lo ?? '', read((e.target as HTMLInputElement).value)])} /></label>
    </div>`;
  }
  return html`<label class="field">${numeric ? 'Number' : type === 'date' ? 'Date' : 'Text'}<input aria-label="${name}: ${numeric ? 'number' : type === 'date' ? 'date' : 'text'}" type=${type}
    .value=${cond.value === undefined ? '' : String(cond.value)} @input=${(e: Event) => set(read((e.target as HTMLInputElement).value))} /></label>`;
}
