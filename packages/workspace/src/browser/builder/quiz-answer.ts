import { LitElement, html } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Question } from '../../data/forms';

/**
 * `<fl-quiz-answer>`: the correct answer of a knowledge-quiz question, chosen the way a respondent answers
 * (a choice, several choices, yes or no, a number, a text). Announces `fl-answer` (null clears it).
 */
export class FlQuizAnswer extends LitElement {
  static override styles = [tokens, controls];
  static override properties = { question: { attribute: false } };
  question!: Question;

  private emit(v: unknown) {
    this.dispatchEvent(new CustomEvent('fl-answer', { detail: v }));
  }

  override render() {
    const q = this.question;
    const p = q.properties ?? {};
    const current = p.correct_answer;
    const choices = Array.isArray(p.choices) ? (p.choices as Array<{ label: string }>).map((c) => c.label) : null;
    if (choices && q.type === 'multiple_choice' && p.allow_multiple === true) {
      const picked = Array.isArray(current) ? (current as string[]) : [];
      return html`<fieldset class="stack"><legend>Correct answers</legend>
        ${choices.map((c) => html`<label class="check"><input type="checkbox" .checked=${picked.includes(c)} @change=${(e: Event) => {
          const next = (e.target as HTMLInputElement).checked ? [...picked, c] : picked.filter((x) => x !== c);
          this.emit(next.length ? next : null);
        }} />${c}</label>`)}</fieldset>`;
    }
    if (choices) {
      return html`<label class="field">Correct answer<select @change=${(e: Event) => this.emit((e.target as HTMLSelectElement).value || null)}>
        <option value="">None</option>${choices.map((c) => html`<option value=${c} ?selected=${c === current}>${c}</option>`)}</select></label>`;
    }
    if (q.type === 'yes_no') {
      return html`<label class="field">Correct answer<select @change=${(e: Event) => { const v = (e.target as HTMLSelectElement).value; this.emit(v === '' ? null : v === 'true'); }}>
        <option value="">None</option><option value="true" ?selected=${current === true}>Yes</option><option value="false" ?selected=${current === false}>No</option></select></label>`;
    }
    const numeric = q.type === 'number' || q.type === 'rating' || q.type === 'opinion_scale';
    return html`<label class="field">Correct answer<input type=${numeric ? 'number' : q.type === 'date' ? 'date' : 'text'} .value=${current === undefined || current === null ? '' : String(current)}
      @input=${(e: Event) => {
        const t = (e.target as HTMLInputElement).value;
        this.emit(t === '' ? null : numeric ? Number(t) : t);
      }} /></label>`;
  }
}
customElements.get('fl-quiz-answer') || customElements.define('fl-quiz-answer', FlQuizAnswer);
