import { html, nothing } from 'lit';
import { KindEditor } from './kind-editor';
import { numberField, selectField, textField } from '../../controls/fields';

/** `<fl-text-editor>`: short text, long text and email: placeholder and longest answer. */
export class FlTextEditor extends KindEditor {
  override render() {
    const p = this.props;
    return html`${textField('Placeholder', p.placeholder, (v) => this.set('placeholder', v), { placeholder: 'Shown in the empty field' })}
      ${this.question.type === 'email' ? nothing : numberField('Longest answer (characters)', p.max_length, (v) => this.set('max_length', v), { min: 1, integer: true })}`;
  }
}
customElements.get('fl-text-editor') || customElements.define('fl-text-editor', FlTextEditor);

/** `<fl-number-editor>`: smallest and largest number accepted. */
export class FlNumberEditor extends KindEditor {
  override render() {
    const p = this.props;
    const bad = typeof p.min === 'number' && typeof p.max === 'number' && p.min > p.max;
    return html`<div class="grid2">
        ${numberField('Smallest', p.min, (v) => this.set('min', v))}
        ${numberField('Largest', p.max, (v) => this.set('max', v))}
      </div>
      ${bad ? html`<p class="error-text" role="alert">The smallest number must not exceed the largest.</p>` : nothing}`;
  }
}
customElements.get('fl-number-editor') || customElements.define('fl-number-editor', FlNumberEditor);

/** `<fl-date-editor>`: how the date is written. */
export class FlDateEditor extends KindEditor {
  override render() {
    return selectField('Date format', this.props.format ?? 'YYYY-MM-DD', [['YYYY-MM-DD', 'YYYY-MM-DD'], ['DD/MM/YYYY', 'DD/MM/YYYY'], ['MM/DD/YYYY', 'MM/DD/YYYY']] as const, (v) => this.set('format', v));
  }
}
customElements.get('fl-date-editor') || customElements.define('fl-date-editor', FlDateEditor);

const SHAPES = [['star', 'Stars'], ['heart', 'Hearts'], ['thumb', 'Thumbs'], ['circle', 'Circles'], ['number', 'Numbers']] as const;

/** `<fl-rating-editor>`: number of steps and their shape. */
export class FlRatingEditor extends KindEditor {
  override render() {
    const p = this.props;
    return html`<div class="grid2">
      ${selectField('Steps', String(p.steps ?? 5), [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => [String(n), String(n)] as const), (v) => this.set('steps', Number(v)))}
      ${selectField('Shape', p.shape ?? 'star', SHAPES, (v) => this.set('shape', v))}
    </div>`;
  }
}
customElements.get('fl-rating-editor') || customElements.define('fl-rating-editor', FlRatingEditor);

/** `<fl-scale-editor>`: the opinion scale's ends and their labels. */
export class FlScaleEditor extends KindEditor {
  override render() {
    const p = this.props;
    return html`<div class="grid2">
        ${selectField('From', String(p.min ?? 0), [['0', '0'], ['1', '1']] as const, (v) => this.set('min', Number(v)))}
        ${selectField('To', String(p.max ?? 10), [2, 3, 4, 5, 6, 7, 8, 9, 10].map((n) => [String(n), String(n)] as const), (v) => this.set('max', Number(v)))}
      </div>
      <div class="grid2">
        ${textField('Label of the lowest', p.min_label, (v) => this.set('min_label', v), { placeholder: 'Not likely' })}
        ${textField('Label of the highest', p.max_label, (v) => this.set('max_label', v), { placeholder: 'Very likely' })}
      </div>`;
  }
}
customElements.get('fl-scale-editor') || customElements.define('fl-scale-editor', FlScaleEditor);

/** `<fl-file-editor>`: largest file and the types accepted. */
export class FlFileEditor extends KindEditor {
  override render() {
    const p = this.props;
    const types = Array.isArray(p.allowed_types) ? (p.allowed_types as string[]).join(', ') : '';
    return html`${numberField('Largest file (MB)', p.max_size_mb, (v) => this.set('max_size_mb', v), { min: 0.1, max: 100, hint: 'At most 100' })}
      <label class="field">File types accepted
        <input type="text" aria-describedby="types-hint" .value=${types} @change=${(e: Event) => {
          const list = (e.target as HTMLInputElement).value.split(',').map((s) => s.trim()).filter(Boolean);
          this.set('allowed_types', list.length ? list : null);
        }} />
      </label><span id="types-hint" class="muted hint">Extensions or media types, separated by commas (e.g. .pdf, image/*). Empty: any.</span>`;
  }
}
customElements.get('fl-file-editor') || customElements.define('fl-file-editor', FlFileEditor);
