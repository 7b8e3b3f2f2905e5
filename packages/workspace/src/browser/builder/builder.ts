import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { createApi, type Api } from '../../data/client';
import { getForm, type Form } from '../../data/forms';

/**
 * `<formloom-builder form-id="...">`: edits one form (docs/workspace.md, "The builder"). Alone in a host
 * page it calls the API at `api-base` (default `/api/v1`) with the page's own cookies; inside the workspace
 * the shell passes its `api`.
 */
export class FormloomBuilder extends LitElement {
  static override styles = [tokens, controls, css`:host { display: block; }`];
  static override properties = {
    formId: { attribute: 'form-id' },
    apiBase: { attribute: 'api-base' },
    api: { attribute: false },
    form: { state: true },
    error: { state: true },
  };
  formId = '';
  apiBase = '/api/v1';
  api: Api | null = null;
  form: Form | null = null;
  error = '';

  override connectedCallback(): void {
    super.connectedCallback();
    this.api ??= createApi(this.apiBase);
    void getForm(this.api, this.formId).then(
      (r) => (this.form = r.form),
      (e: Error) => (this.error = e.message),
    );
  }

  override render() {
    if (this.error) return html`<p role="alert">${this.error}</p>`;
    if (!this.form) return html`<p role="status">Loading…</p>`;
    return html`<h1>${this.form.title}</h1>${nothing}`;
  }
}
customElements.get('formloom-builder') || customElements.define('formloom-builder', FormloomBuilder);
