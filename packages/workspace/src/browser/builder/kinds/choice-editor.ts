import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { KindEditor } from './kind-editor';
import { checkField } from '../../controls/fields';
import '../recall-picker';

interface Choice {
  id?: string;
  label: string;
  score?: number;
  ending_id?: string;
}

/**
 * `<fl-choice-editor>`: multiple choice and dropdown: the choices (add, rename, reorder, remove), and for
 * multiple choice several answers, "Other" and random order. In a lead-qualification quiz each choice has a
 * score; in a match quiz, the ending it votes for (`endings` is given by the builder).
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

  private move(i: number, by: number) {
    const list = [...this.choices];
    const [c] = list.splice(i, 1);
    list.splice(i + by, 0, c!);
    this.setChoices(list);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLButtonElement>(`[data-move="${i + by}:${by}"]`)?.focus());
  }

  private add() {
    this.setChoices([...this.choices, { label: `Option ${this.choices.length + 1}` }]);
    void this.updateComplete.then(() => {
      const inputs = this.renderRoot.querySelectorAll<HTMLInputElement>('input.choice');
      inputs[inputs.length - 1]?.select();
    });
  }

  override render() {
    const p = this.props;
    const list = this.choices;
    const many = this.question.type === 'multiple_choice';
    return html`<fieldset>
        <legend>Choices</legend>
        ${repeat(list, (_c, i) => i, (c, i) => html`<div class="item">
          <div class="grid2">
            <div><label class="field">Choice ${i + 1}<input class="choice" type="text" .value=${c.label} @input=${(e: Event) => this.edit(i, { label: (e.target as HTMLInputElement).value })} /></label>
              <fl-recall .value=${c.label} at=${this.question.id} label="choice ${i + 1}"></fl-recall></div>
            ${this.mode === 'lead_qualification' ? html`<label class="field">Score<input type="number" step="any" .value=${c.score === undefined ? '' : String(c.score)} @input=${(e: Event) => { const v = (e.target as HTMLInputElement).value; this.edit(i, { score: v === '' ? undefined : Number(v) }); }} /></label>` : nothing}
            ${this.mode === 'match_quiz'
              ? html`<label class="field">Counts toward ending<select @change=${(e: Event) => this.edit(i, { ending_id: (e.target as HTMLSelectElement).value || undefined })}>
                  <option value="">None</option>${this.endings.map((en) => html`<option value=${en.id} ?selected=${en.id === c.ending_id}>${en.title || en.id}</option>`)}
                </select></label>`
              : nothing}
          </div>
          <div class="btns">
            <button class="btn icon small" type="button" data-move="${i}:-1" aria-label="Move choice ${i + 1} up" ?disabled=${i === 0} @click=${() => this.move(i, -1)}>↑</button>
            <button class="btn icon small" type="button" data-move="${i}:1" aria-label="Move choice ${i + 1} down" ?disabled=${i === list.length - 1} @click=${() => this.move(i, 1)}>↓</button>
            <button class="btn icon small danger" type="button" aria-label="Remove choice ${i + 1}" ?disabled=${list.length <= 1} @click=${() => this.setChoices(list.filter((_x, j) => j !== i))}>✕</button>
          </div>
        </div>`)}
        <div><button class="btn small" type="button" @click=${() => this.add()}>Add a choice</button></div>
      </fieldset>
      ${many
        ? html`${checkField('Allow several answers', p.allow_multiple, (v) => this.set('allow_multiple', v))}
          ${checkField('Offer “Other” with a text field', p.allow_other, (v) => this.set('allow_other', v || null))}
          ${checkField('Show choices in random order', p.randomize, (v) => this.set('randomize', v || null))}`
        : nothing}`;
  }
}
customElements.get('fl-choice-editor') || customElements.define('fl-choice-editor', FlChoiceEditor);
