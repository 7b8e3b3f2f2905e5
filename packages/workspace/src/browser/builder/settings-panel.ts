import { html, nothing } from 'lit';
import { BuilderPanel } from './panel';
import { checkField, numberField, selectField, textField } from '../controls/fields';
import type { LogicQuestion } from './logic-editor';
import './logic-editor';
import './preview-pane';
import './settings-parts';
import './recall-picker';
import './address-field';
import './languages-panel';

/** A local date-time input's value from an ISO instant, and back (with the browser's offset). */
const toLocal = (iso: string | null) => {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
const fromLocal = (v: string) => (v ? new Date(v).toISOString() : null);

/**
 * `<fl-settings-panel>`: the form's settings (docs/workspace.md, "Settings"): its address, welcome and thank-you screens,
 * hidden fields and start jumps, closing date and response limit, redirect, quiz mode and endings, variables.
 */
export class FlSettingsPanel extends BuilderPanel {
  static override properties = { ...BuilderPanel.properties, previewAt: { state: true } };
  previewAt = 'welcome';

  private startLists(): { tested: LogicQuestion[]; targets: LogicQuestion[] } {
    return { tested: [], targets: this.form.questions.map((q) => ({ id: q.id, title: q.title || 'Untitled question', type: q.type })) };
  }

  override render() {
    const f = this.form;
    const { targets } = this.startLists();
    return html`<div class="cols"><div class="sections">
      <section class="card" aria-labelledby="s-address">
        <h2 id="s-address">The form's address</h2>
        <fl-form-address .store=${this.store} .tick=${this.tick} origin=${`${location.origin}${this.pagesBase}`}></fl-form-address>
      </section>
      <section class="card" aria-labelledby="s-screens" @focusin=${(e: Event) => (this.previewAt = (e.target as HTMLElement).closest('[data-at]')?.getAttribute('data-at') ?? this.previewAt)}>
        <h2 id="s-screens">Welcome and thank-you screens</h2>
        ${textField('Form description', f.description, (v) => this.patch({ description: v }), { multiline: true, rows: 2 })}
        <fieldset data-at="welcome"><legend>Welcome screen</legend>
          ${textField('Title', f.welcome_title, (v) => this.patch({ welcome_title: v }), { placeholder: 'Shown before the first question; leave empty to start at once' })}
          <fl-recall .value=${f.welcome_title} at="before" label="the welcome title"></fl-recall>
          ${textField('Text', f.welcome_description, (v) => this.patch({ welcome_description: v }), { multiline: true, rows: 2 })}
          <fl-recall .value=${f.welcome_description} at="before" label="the welcome text"></fl-recall>
          ${textField('Button', f.welcome_button_text, (v) => this.patch({ welcome_button_text: v }), { placeholder: 'Start' })}
          <fl-recall .value=${f.welcome_button_text} at="before" label="the welcome button"></fl-recall>
        </fieldset>
        <fieldset data-at="thanks"><legend>Thank-you screen</legend>
          ${textField('Title', f.thank_you_title, (v) => this.patch({ thank_you_title: v }), { placeholder: 'Thank you!' })}
          <fl-recall .value=${f.thank_you_title} at="after" label="the thank-you title"></fl-recall>
          ${textField('Text', f.thank_you_description, (v) => this.patch({ thank_you_description: v }), { multiline: true, rows: 2 })}
          <fl-recall .value=${f.thank_you_description} at="after" label="the thank-you text"></fl-recall>
        </fieldset>
      </section>
      <fl-languages .store=${this.store} .tick=${this.tick} .readOnly=${this.readOnly}></fl-languages>
      <section class="card" aria-labelledby="s-resp">
        <h2 id="s-resp">Hidden fields and where respondents start</h2>
        <fl-hidden-fields .names=${f.hidden_fields ?? []} @fl-names=${(e: CustomEvent) => this.patch({ hidden_fields: (e.detail as string[]).length ? e.detail : null })}></fl-hidden-fields>
        <h3>Start jumps</h3>
        <p class="muted hint">Choose the first question from hidden fields given in the link (prefilled answers are read too).</p>
        <fl-logic-editor .jumps=${f.start_logic_jumps ?? []} .tested=${[]} .targets=${targets} .hiddenFields=${f.hidden_fields ?? []}
          @fl-jumps=${(e: CustomEvent) => this.patch({ start_logic_jumps: (e.detail as unknown[]).length ? e.detail : null })}></fl-logic-editor>
      </section>
      <section class="card" aria-labelledby="s-limits">
        <h2 id="s-limits">Responses</h2>
        <div class="grid2">
          <label class="field">Close on<input type="datetime-local" .value=${toLocal(f.close_at)} @change=${(e: Event) => this.patch({ close_at: fromLocal((e.target as HTMLInputElement).value) })} /></label>
          ${numberField('Stop after this many responses', f.response_limit, (v) => this.patch({ response_limit: v }), { min: 1, integer: true })}
        </div>
        ${checkField('One response per person (per browser)', f.limit_one_response, (v) => this.patch({ limit_one_response: v }))}
        ${checkField('Save answers as respondents go (partial responses)', f.incremental_submission, (v) => this.patch({ incremental_submission: v }))}
        ${checkField('Translate the form for respondents automatically', f.auto_translate, (v) => this.patch({ auto_translate: v }))}
        ${textField('After submitting, go to', f.redirect_url, (v) => this.patch({ redirect_url: v }), { type: 'url', placeholder: 'https://example.com/thanks' })}
        <fl-recall .value=${f.redirect_url} at="after" label="the redirect address"></fl-recall>
        ${f.redirect_url ? checkField('Add the response id to that address', f.redirect_append_response_id, (v) => this.patch({ redirect_append_response_id: v })) : nothing}
        ${textField('Webhook URL', f.webhook_url, (v) => this.patch({ webhook_url: v }), { type: 'url', hint: 'Each response is sent to this address as it arrives.' })}
      </section>
      <section class="card" aria-labelledby="s-keep">
        <h2 id="s-keep">Keeping responses</h2>
        <p class="muted hint">Older responses and their files are deleted every hour. Leave both empty to keep every response.</p>
        <div class="grid2">
          ${numberField('Delete responses older than (days)', f.response_retention?.older_than_days ?? null, (v) => this.patch({ response_retention: retention({ ...f.response_retention, older_than_days: v }) }), { min: 1, integer: true })}
          ${numberField('Keep only the newest (responses)', f.response_retention?.keep_newest ?? null, (v) => this.patch({ response_retention: retention({ ...f.response_retention, keep_newest: v }) }), { min: 1, integer: true })}
        </div>
      </section>
      <section class="card" aria-labelledby="s-quiz">
        <h2 id="s-quiz">Quiz</h2>
        ${selectField('Mode', f.mode, [['standard', 'A form (no scoring)'], ['knowledge_quiz', 'Knowledge quiz: correct answers and points'], ['lead_qualification', 'Lead qualification: a score per choice'], ['match_quiz', 'Match quiz: choices vote for an ending']] as const, (v) => this.patch({ mode: v }))}
        ${f.mode !== 'standard' ? html`<fl-endings .mode=${f.mode} .settings=${f.quiz_settings} @fl-settings=${(e: CustomEvent) => this.patch({ quiz_settings: e.detail })}></fl-endings>` : nothing}
      </section>
      <section class="card" aria-labelledby="s-vars">
        <h2 id="s-vars">Variables</h2>
        <p class="muted hint">Values kept with the form for logic and your integrations; respondents see one only where a text recalls it (type @ in that text).</p>
        <fl-variables .variables=${f.variables ?? {}} @fl-variables=${(e: CustomEvent) => this.patch({ variables: Object.keys(e.detail).length ? e.detail : null })}></fl-variables>
      </section>
    </div>
    <fl-preview class="sticky" .form=${f} at=${this.previewAt} pages-base=${this.pagesBase} data-tick=${this.tick}></fl-preview></div>`;
  }
}
/** The form's retention policy from the two fields; null when both are empty (keep every response). */
function retention(p: { older_than_days?: number | null; keep_newest?: number | null }) {
  const out: { older_than_days?: number; keep_newest?: number } = {};
  if (p.older_than_days) out.older_than_days = p.older_than_days;
  if (p.keep_newest) out.keep_newest = p.keep_newest;
  return Object.keys(out).length ? out : null;
}

customElements.get('fl-settings-panel') || customElements.define('fl-settings-panel', FlSettingsPanel);
