import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Form } from '../../data/forms';
import { readableText } from '../builder/recall-ids';

/** Types a link can prefill (docs/respondents.md): one value each. */
const PREFILLABLE = ['short_text', 'long_text', 'email', 'number', 'date', 'yes_no', 'multiple_choice', 'dropdown', 'rating', 'opinion_scale'];

/** `<fl-prefill-builder>`: values per question and hidden field, chosen from lists where there are choices. Announces `fl-prefill`. */
export class FlPrefillBuilder extends LitElement {
  static override styles = [tokens, controls, css`:host { display: grid; gap: 0.6rem; }`];
  static override properties = { form: { attribute: false }, values: { attribute: false } };
  form!: Form;
  values: Record<string, string> = {};

  private set(key: string, value: string) {
    this.dispatchEvent(new CustomEvent('fl-prefill', { detail: { ...this.values, [key]: value } }));
  }

  override render() {
    const qs = this.form.questions.filter((q) => PREFILLABLE.includes(q.type));
    const hidden = this.form.hidden_fields ?? [];
    if (!qs.length && !hidden.length) return html`<p class="muted">No question of this form can be prefilled.</p>`;
    return html`<div class="grid2">
      ${hidden.map((h) => html`<label class="field">Hidden field ${h}<input type="text" .value=${this.values[h] ?? ''} @input=${(e: Event) => this.set(h, (e.target as HTMLInputElement).value)} /></label>`)}
      ${qs.map((q) => {
        const v = this.values[q.id] ?? '';
        // A recall reads as "@" and the question it names (recall-ids.ts), never as its raw token.
        const title = readableText(q.title ?? '', this.form.questions) || 'Untitled question';
        const choices = Array.isArray(q.properties?.choices) ? (q.properties.choices as Array<{ label: string }>).map((c) => c.label) : null;
        if (choices || q.type === 'yes_no') {
          const opts = choices ?? ['true', 'false'];
          return html`<label class="field">${title}<select @change=${(e: Event) => this.set(q.id, (e.target as HTMLSelectElement).value)}>
            <option value="">No value</option>${opts.map((o) => html`<option value=${o} ?selected=${o === v}>${q.type === 'yes_no' ? (o === 'true' ? 'Yes' : 'No') : readableText(o, this.form.questions)}</option>`)}</select></label>`;
        }
        return html`<label class="field">${title}<input type=${q.type === 'date' ? 'date' : ['number', 'rating', 'opinion_scale'].includes(q.type) ? 'number' : 'text'} .value=${v} @input=${(e: Event) => this.set(q.id, (e.target as HTMLInputElement).value)} /></label>`;
      })}
    </div>${nothing}`;
  }
}
customElements.get('fl-prefill-builder') || customElements.define('fl-prefill-builder', FlPrefillBuilder);
/** The share link with prefilled answers and hidden fields as query parameters (docs/respondents.md). */
export function prefillLink(url: string, values: Record<string, string>): string {
  const u = new URL(url);
  for (const [k, v] of Object.entries(values)) if (v !== '') u.searchParams.set(k, v);
  return u.href;
}
