import { html, nothing } from 'lit';
import { KindEditor } from './kind-editor';
import { selectField, textField } from '../../controls/fields';
import type { Api } from '../../../data/client';
import { getForm } from '../../../data/forms';
import { listVersions, type Version } from '../../../data/versions';
import '../recall-picker';

/*
 * `<fl-fuse-editor>` (docs/logic.md "Fuse"): the form respondents continue in, the version they continue in
 * (the live one, or one pinned), and what they carry into it: a text per hidden field of that form, with the `@`
 * recall picker for earlier answers. `forms` (the owner's other forms) is given by the builder.
 */

/** What the editor reads of the chosen form: its hidden fields and its published versions, newest first. */
interface Target {
  id: string;
  hidden: string[];
  versions: Version[];
}

export class FlFuseEditor extends KindEditor {
  static override properties = { ...KindEditor.properties, forms: { attribute: false }, api: { attribute: false }, target: { state: true } };
  forms: Array<{ id: string; title: string }> = [];
  api: Api | null = null;
  target: Target | null = null;
  private reading = '';

  /** The chosen form's hidden fields and versions are read when the choice changes. */
  override updated() {
    const id = typeof this.props.fuse_form_id === 'string' ? this.props.fuse_form_id : '';
    if (!this.api || id === this.reading) return;
    this.reading = id;
    this.target = null;
    if (!id) return;
    const api = this.api;
    void Promise.all([getForm(api, id), listVersions(api, id)]).then(
      ([{ form }, versions]) => {
        if (this.reading === id) this.target = { id, hidden: (form as { hidden_fields?: string[] | null }).hidden_fields ?? [], versions };
      },
      () => undefined,
    );
  }

  private carried(): Record<string, string> {
    const v = this.props.hidden_fields;
    return v && typeof v === 'object' ? (v as Record<string, string>) : {};
  }

  private carry(name: string, text: string | null) {
    const next = { ...this.carried() };
    if (text === null) delete next[name];
    else next[name] = text;
    this.set('hidden_fields', Object.keys(next).length ? next : null);
  }

  private renderVersion() {
    const t = this.target;
    const pinned = typeof this.props.session_id === 'string' ? this.props.session_id : '';
    if (!t) return nothing;
    const options: Array<[string, string]> = [['', 'The live version (changes when that form is published again)'], ...t.versions.map((v) => [v.id, `Version ${v.version}, published ${new Date(v.created_at).toLocaleDateString()}`] as [string, string])];
    if (pinned && !t.versions.some((v) => v.id === pinned)) options.push([pinned, 'A version that form no longer has: choose another']);
    return selectField('Version respondents continue in', pinned, options, (v) => this.set('session_id', v || null));
  }

  private renderCarried() {
    const t = this.target;
    if (!t) return nothing;
    const carried = this.carried();
    const names = [...new Set([...t.hidden, ...Object.keys(carried)])];
    const id = this.question.id;
    return html`<fieldset><legend>Answers to carry</legend>
      ${names.length ? html`<p class="muted hint">That form starts with these hidden fields filled in. Type @ to add an earlier answer.</p>` : html`<p class="muted hint">That form has no hidden fields to fill. Add some in its Settings to carry answers into it.</p>`}
      ${names.map((name) => html`${textField(t.hidden.includes(name) ? name : `${name} (not a hidden field of that form: left out)`, carried[name], (v) => this.carry(name, v))}
        <fl-recall .value=${carried[name] ?? ''} at=${id} label="the hidden field ${name}"></fl-recall>`)}
    </fieldset>`;
  }

  override render() {
    return html`${selectField('Continue in form', this.props.fuse_form_id ?? '', [['', 'Choose a form'], ...this.forms.map((f) => [f.id, f.title] as [string, string])], (v) => this.set('fuse_form_id', v || null))}
      <p class="muted hint">When respondents reach this step, their answers so far are saved and they go straight on in that form.</p>
      ${this.renderVersion()} ${this.renderCarried()}`;
  }
}
customElements.get('fl-fuse-editor') || customElements.define('fl-fuse-editor', FlFuseEditor);
