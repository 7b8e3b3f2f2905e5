import { LitElement, html, nothing, css } from 'lit';
import { tokens, controls } from '../controls/styles';

const NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const shared = [tokens, controls, css`:host { display: grid; gap: 0.6rem; } .item { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; } .hint { font-weight: 400; font-size: 0.8125rem; }`];

/** `<fl-hidden-fields>`: names of hidden fields read from the form's link (`?name=value`). Announces `fl-names`. */
export class FlHiddenFields extends LitElement {
  static override styles = shared;
  static override properties = { names: { attribute: false }, draft: { state: true }, problem: { state: true } };
  names: string[] = [];
  draft = '';
  problem = '';

  private add() {
    const name = this.draft.trim();
    if (!NAME.test(name)) return void (this.problem = 'A name is letters, digits, _ and - (at most 64), not starting with - or a digit.');
    if (this.names.includes(name)) return void (this.problem = 'That name is already there.');
    if (this.names.length >= 20) return void (this.problem = 'At most 20 hidden fields.');
    this.problem = '';
    this.draft = '';
    this.dispatchEvent(new CustomEvent('fl-names', { detail: [...this.names, name] }));
  }

  override render() {
    return html`<ul class="stack" style="list-style:none;margin:0;padding:0" aria-label="Hidden fields">
        ${this.names.map((n) => html`<li class="item"><code>${n}</code><button class="btn small danger" type="button" aria-label="Remove hidden field ${n}" @click=${() => this.dispatchEvent(new CustomEvent('fl-names', { detail: this.names.filter((x) => x !== n) }))}>Remove</button></li>`)}
      </ul>
      <div class="item">
        <label class="field">New hidden field<input type="text" .value=${this.draft} placeholder="utm_source" @input=${(e: Event) => (this.draft = (e.target as HTMLInputElement).value)} @keydown=${(e: KeyboardEvent) => e.key === 'Enter' && (e.preventDefault(), this.add())} /></label>
        <button class="btn" type="button" @click=${() => this.add()}>Add</button>
      </div>
      ${this.problem ? html`<p class="error-text" role="alert">${this.problem}</p>` : nothing}`;
  }
}
customElements.get('fl-hidden-fields') || customElements.define('fl-hidden-fields', FlHiddenFields);

interface Ending {
  id: string;
  title: string;
  min_score?: number;
  max_score?: number;
}

/** `<fl-endings>`: a quiz's endings: a title each, and for scored modes the range of scores it covers. Announces `fl-settings`. */
export class FlEndings extends LitElement {
  static override styles = shared;
  static override properties = { mode: {}, settings: { attribute: false } };
  mode = 'knowledge_quiz';
  settings: Record<string, unknown> | null = null;

  private get endings(): Ending[] {
    const e = this.settings?.endings;
    return Array.isArray(e) ? (e as Ending[]) : [];
  }

  private put(endings: Ending[]) {
    this.dispatchEvent(new CustomEvent('fl-settings', { detail: { ...this.settings, endings } }));
  }

  private edit(i: number, patch: Partial<Ending>) {
    this.put(this.endings.map((e, j) => {
      if (j !== i) return e;
      const next = { ...e, ...patch } as Record<string, unknown>;
      for (const k of ['min_score', 'max_score']) if (next[k] === undefined || Number.isNaN(next[k])) delete next[k];
      return next as unknown as Ending;
    }));
  }

  override render() {
    const scored = this.mode !== 'match_quiz';
    const num = (v: string) => (v === '' ? undefined : Number(v));
    return html`<fieldset><legend>Endings</legend>
      <p class="muted hint">${scored ? 'The first ending whose score range holds the score is shown.' : 'The ending most chosen answers vote for is shown.'}</p>
      ${this.endings.map((e, i) => html`<div class="item"><div class="grid2">
          <label class="field">Ending ${i + 1}<input type="text" .value=${e.title} @input=${(ev: Event) => this.edit(i, { title: (ev.target as HTMLInputElement).value })} /></label>
          ${scored ? html`<label class="field">From score<input type="number" .value=${e.min_score ?? ''} @input=${(ev: Event) => this.edit(i, { min_score: num((ev.target as HTMLInputElement).value) })} /></label>
            <label class="field">To score<input type="number" .value=${e.max_score ?? ''} @input=${(ev: Event) => this.edit(i, { max_score: num((ev.target as HTMLInputElement).value) })} /></label>` : nothing}
        </div>
        <button class="btn small danger" type="button" aria-label="Remove ending ${i + 1}" @click=${() => this.put(this.endings.filter((_x, j) => j !== i))}>✕</button></div>`)}
      <div><button class="btn small" type="button" @click=${() => this.put([...this.endings, { id: `ending_${Date.now().toString(36)}`, title: `Ending ${this.endings.length + 1}` }])}>Add an ending</button></div>
    </fieldset>`;
  }
}
customElements.get('fl-endings') || customElements.define('fl-endings', FlEndings);

/** `<fl-variables>`: the form's variables, name = value (a value that reads as JSON is kept as such). Announces `fl-variables`. */
export class FlVariables extends LitElement {
  static override styles = shared;
  static override properties = { variables: { attribute: false }, name: { state: true }, value: { state: true }, problem: { state: true } };
  variables: Record<string, unknown> = {};
  name = '';
  value = '';
  problem = '';

  private emit(v: Record<string, unknown>) {
    this.dispatchEvent(new CustomEvent('fl-variables', { detail: v }));
  }

  private add() {
    if (!VAR_NAME.test(this.name)) return void (this.problem = 'A name is letters, digits and _ (at most 64), not starting with a digit.');
    if (Object.keys(this.variables).length >= 100 && !(this.name in this.variables)) return void (this.problem = 'At most 100 variables.');
    let value: unknown = this.value;
    try {
      value = JSON.parse(this.value);
    } catch {
      // Plain text: kept as a string.
    }
    this.problem = '';
    this.emit({ ...this.variables, [this.name]: value });
    this.name = '';
    this.value = '';
  }

  override render() {
    const entries = Object.entries(this.variables);
    return html`${entries.length ? html`<table><thead><tr><th scope="col">Name</th><th scope="col">Value</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead><tbody>
        ${entries.map(([k, v]) => html`<tr><td><code>${k}</code></td><td><code>${JSON.stringify(v)}</code></td><td><button class="btn small danger" type="button" aria-label="Remove variable ${k}" @click=${() => { const next = { ...this.variables }; delete next[k]; this.emit(next); }}>Remove</button></td></tr>`)}
      </tbody></table>` : html`<p class="muted">No variables.</p>`}
      <div class="grid2">
        <label class="field">Name<input type="text" .value=${this.name} @input=${(e: Event) => (this.name = (e.target as HTMLInputElement).value)} /></label>
        <label class="field">Value<input type="text" .value=${this.value} placeholder='e.g. 42, "text", {"a": 1}' @input=${(e: Event) => (this.value = (e.target as HTMLInputElement).value)} /></label>
      </div>
      <div><button class="btn small" type="button" @click=${() => this.add()}>Add variable</button></div>
      ${this.problem ? html`<p class="error-text" role="alert">${this.problem}</p>` : nothing}`;
  }
}
customElements.get('fl-variables') || customElements.define('fl-variables', FlVariables);
