import { html } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { KindEditor } from './kind-editor';

interface Sub {
  id?: string;
  type: string;
  title: string;
  required?: boolean;
}

const SUB_TYPES = [['short_text', 'Short text'], ['long_text', 'Long text'], ['email', 'Email'], ['number', 'Number'], ['date', 'Date'], ['phone', 'Phone'], ['url', 'Web address'], ['dropdown', 'Dropdown']] as const;

/** `<fl-group-editor>`: the sub-fields of a question group or a page of several questions. */
export class FlGroupEditor extends KindEditor {
  private get subs(): Sub[] {
    return Array.isArray(this.props.questions) ? (this.props.questions as Sub[]) : [];
  }

  private edit(i: number, patch: Partial<Sub>) {
    this.set('questions', this.subs.map((s, j) => (j === i ? { ...s, ...patch } : s)));
  }

  private move(i: number, by: number) {
    const list = [...this.subs];
    const [s] = list.splice(i, 1);
    list.splice(i + by, 0, s!);
    this.set('questions', list);
  }

  override render() {
    const list = this.subs;
    return html`<fieldset>
      <legend>Fields</legend>
      ${repeat(list, (_s, i) => i, (s, i) => html`<div class="item">
        <div class="grid2">
          <label class="field">Field ${i + 1}<input type="text" .value=${s.title} @input=${(e: Event) => this.edit(i, { title: (e.target as HTMLInputElement).value })} /></label>
          <label class="field">Kind<select @change=${(e: Event) => this.edit(i, { type: (e.target as HTMLSelectElement).value })}>
            ${SUB_TYPES.map(([v, t]) => html`<option value=${v} ?selected=${v === s.type}>${t}</option>`)}
          </select></label>
          <label class="check"><input type="checkbox" .checked=${s.required === true} @change=${(e: Event) => this.edit(i, { required: (e.target as HTMLInputElement).checked })} />Required</label>
        </div>
        <div class="btns">
          <button class="btn icon small" type="button" aria-label="Move field ${i + 1} up" ?disabled=${i === 0} @click=${() => this.move(i, -1)}>↑</button>
          <button class="btn icon small" type="button" aria-label="Move field ${i + 1} down" ?disabled=${i === list.length - 1} @click=${() => this.move(i, 1)}>↓</button>
          <button class="btn icon small danger" type="button" aria-label="Remove field ${i + 1}" ?disabled=${list.length <= 1} @click=${() => this.set('questions', list.filter((_x, j) => j !== i))}>✕</button>
        </div>
      </div>`)}
      <div><button class="btn small" type="button" ?disabled=${list.length >= 50} @click=${() => this.set('questions', [...list, { type: 'short_text', title: `Field ${list.length + 1}`, required: false }])}>Add a field</button></div>
    </fieldset>`;
  }
}
customElements.get('fl-group-editor') || customElements.define('fl-group-editor', FlGroupEditor);

const FIELD_NAMES: Record<string, Array<[string, string]>> = {
  contact_info: [['first_name', 'First name'], ['last_name', 'Last name'], ['email', 'Email'], ['phone', 'Phone'], ['company', 'Company']],
  address: [['address_line1', 'Address line 1'], ['address_line2', 'Address line 2'], ['city', 'City'], ['state', 'State or region'], ['zip', 'Postal code'], ['country', 'Country']],
};

/** `<fl-fields-editor>`: which fields contact info and address questions ask (at least one). */
export class FlFieldsEditor extends KindEditor {
  override render() {
    const all = FIELD_NAMES[this.question.type] ?? [];
    const on = Array.isArray(this.props.fields) ? (this.props.fields as string[]) : all.map(([k]) => k);
    return html`<fieldset>
      <legend>Fields asked</legend>
      ${all.map(([k, label]) => html`<label class="check"><input type="checkbox" .checked=${on.includes(k)} ?disabled=${on.length === 1 && on.includes(k)}
        @change=${(e: Event) => {
          const checked = (e.target as HTMLInputElement).checked;
          this.set('fields', all.map(([x]) => x).filter((x) => (x === k ? checked : on.includes(x))));
        }} />${label}</label>`)}
    </fieldset>`;
  }
}
customElements.get('fl-fields-editor') || customElements.define('fl-fields-editor', FlFieldsEditor);
