import { html, nothing } from 'lit';
import { KindEditor } from './kind-editor';
import { checkField } from '../../controls/fields';
import './choice-list';
import type { Choice } from './choice-list';
import '../recall-picker';

/** Most choices of each kind (the API's limits, packages/core/src/forms/question-types.ts). */
const MAX_CHOICES: Record<string, number> = { multiple_choice: 500, dropdown: 5000 };

/**
 * `<fl-choice-editor>`: multiple choice and dropdown: the choices (typed as a list, `<fl-choice-list>`), and
 * for multiple choice several answers, "Other" with a text field (`allow_other`) and random order. In a
 * lead-qualification quiz each choice has a score; in a match quiz, the ending it votes for (`endings` is
 * given by the builder).
 */
export class FlChoiceEditor extends KindEditor {
  static override properties = { ...KindEditor.properties, mode: {}, endings: { attribute: false } };
  mode = 'standard';
  endings: Array<{ id: string; title: string }> = [];

  private get choices(): Choice[] {
    return Array.isArray(this.props.choices) ? (this.props.choices as Choice[]) : [];
  }

  private setChoices(list: Choice[]) {
    this.set('choices', list);
  }

  private edit(i: number, patch: Partial<Choice>) {
    this.setChoices(this.choices.map((c, j) => {
      if (j !== i) return c;
      const next = { ...c, ...patch } as Record<string, unknown>;
      for (const k of Object.keys(next)) if (next[k] === undefined || next[k] === null || next[k] === '') if (k !== 'label') delete next[k];
      return next as unknown as Choice;
    }));
  }

  /** Under each choice: the recall line, and what the quiz mode adds (a score, an ending). */
  private extra(c: Choice, i: number) {
    return html`<fl-recall .value=${c.label} at=${this.question.id} label="choice ${i + 1}"></fl-recall>
      ${this.mode === 'lead_qualification' ? html`<label class="field">Score of choice ${i + 1}<input type="number" step="any" .value=${c.score === undefined ? '' : String(c.score)} @input=${(e: Event) => { const v = (e.target as HTMLInputElement).value; this.edit(i, { score: v === '' ? undefined : Number(v) }); }} /></label>` : nothing}
      ${this.mode === 'match_quiz'
        ? html`<label class="field">Choice ${i + 1} counts toward ending<select @change=${(e: Event) => this.edit(i, { ending_id: (e.target as HTMLSelectElement).value || undefined })}>
            <option value="">None</option>${this.endings.map((en) => html`<option value=${en.id} ?selected=${en.id === c.ending_id}>${en.title || en.id}</option>`)}
          </select></label>`
        : nothing}`;
  }

  override render() {
    const p = this.props;
    const many = this.question.type === 'multiple_choice';
    return html`<fl-choice-list .choices=${this.choices} max=${MAX_CHOICES[this.question.type] ?? 500} .extra=${(c: Choice, i: number) => this.extra(c, i)}
        @fl-choices=${(e: CustomEvent) => { e.stopPropagation(); this.setChoices(e.detail as Choice[]); }}></fl-choice-list>
      ${many
        ? html`${checkField('Allow several answers', p.allow_multiple, (v) => this.set('allow_multiple', v))}
          ${checkField('Offer “Other” with a text field', p.allow_other, (v) => this.set('allow_other', v || null))}
          ${checkField('Show choices in random order', p.randomize, (v) => this.set('randomize', v || null))}`
        : nothing}`;
  }
}
customElements.get('fl-choice-editor') || customElements.define('fl-choice-editor', FlChoiceEditor);
