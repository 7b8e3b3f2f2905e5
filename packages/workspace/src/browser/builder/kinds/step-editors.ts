import { css, html, nothing } from 'lit';
import { KindEditor } from './kind-editor';
import { numberField, selectField, textField } from '../../controls/fields';
import { parseRecalls } from '../../../../../core/src/logic/recall.js';
import type { Api } from '../../../data/client';
import { request } from '../../../data/auth';
import '../recall-picker';

/*
 * Editors of the steps the server runs (docs/logic.md): the email step (recipient, sender name, subject and
 * body, each with the `@` recall picker) and the data node (its source, parameters, secret header, mapping,
 * fallback status field, and "Test the call" with sample values). The publish checks' messages show beside
 * the question (docs/workspace.md, "Publishing").
 */

interface StoreLike {
  draft?: { questions?: Array<{ id: string; title: string }> };
  flush?(): Promise<boolean>;
}

/** The builder's store, up the (shadow-crossing) tree, as the recall picker finds it. */
function storeOf(from: Node): StoreLike | null {
  let n: Node | null = from;
  while (n) {
    const s = (n as Node & { store?: StoreLike }).store;
    if (s?.draft) return s;
    n = n.parentNode ?? (n as ShadowRoot).host ?? null;
  }
  return null;
}

/** `<fl-email-node-editor>`: the mail sent when a respondent passes this step. */
export class FlEmailNodeEditor extends KindEditor {
  override render() {
    const p = this.props;
    const id = this.question.id;
    return html`${textField('Recipient', p.recipient, (v) => this.set('recipient', v), { placeholder: 'team@example.com', hint: 'An address, or type @ to send to the answer of an email question.' })}
      <fl-recall .value=${p.recipient ?? ''} at=${id} label="the recipient"></fl-recall>
      ${textField('Sender name', p.sender_name, (v) => this.set('sender_name', v), { placeholder: 'Acme support', hint: "Shown as the mail's sender; the address is this server's." })}
      ${textField('Subject', p.subject, (v) => this.set('subject', v))}
      <fl-recall .value=${p.subject ?? ''} at=${id} label="the subject"></fl-recall>
      ${textField('Message', p.body, (v) => this.set('body', v), { multiline: true, rows: 6, hint: 'Type @ to add an earlier answer.' })}
      <fl-recall .value=${p.body ?? ''} at=${id} label="the message"></fl-recall>`;
  }
}
customElements.get('fl-email-node-editor') || customElements.define('fl-email-node-editor', FlEmailNodeEditor);

interface TestAnswer {
  status: 'ok' | 'failed';
  http_status: number | null;
  error: string | null;
  body: unknown;
  variables: Record<string, unknown>;
  hidden: Record<string, string>;
}

type Row = [string, string];

/** `<fl-data-node-editor>`: the owner's JSON source, what is sent to it and what is kept of its answer. */
export class FlDataNodeEditor extends KindEditor {
  static override styles = [
    ...KindEditor.styles,
    css`
      pre.answer { margin: 0; max-height: 16rem; overflow: auto; padding: 0.5rem; border: 1px solid var(--_border); border-radius: var(--_radius); font-size: 0.8125rem; white-space: pre-wrap; overflow-wrap: anywhere; }
      .error { color: var(--_danger, #b91c1c); }
      ul { margin: 0; padding-left: 1.25rem; }
    `,
  ];
  static override properties = { ...KindEditor.properties, api: { attribute: false }, samples: { state: true }, result: { state: true }, testing: { state: true }, failure: { state: true } };
  api: Api | null = null;
  samples: Record<string, string> = {};
  result: TestAnswer | null = null;
  testing = false;
  failure = '';

  private rows(key: 'params' | 'mapping'): Row[] {
    const v = this.props[key];
    return v && typeof v === 'object' ? Object.entries(v as Record<string, string>) : [];
  }

  private setRows(key: 'params' | 'mapping', rows: Row[]) {
    this.set(key, rows.length ? Object.fromEntries(rows) : null);
  }

  /** The earlier answers the parameters recall: the sample values "Test the call" asks for. */
  private recalled(): Array<{ id: string; title: string }> {
    const ids = [...new Set(this.rows('params').flatMap(([, v]) => parseRecalls(v).filter((r) => r.kind === 'answer').map((r) => r.name)))];
    const qs = storeOf(this)?.draft?.questions ?? [];
    return ids.map((id) => ({ id, title: qs.find((q) => q.id === id)?.title || id }));
  }

  private async test() {
    if (!this.api) return;
    this.testing = true;
    this.failure = '';
    this.result = null;
    try {
      // The server calls the question as saved: save the edits first.
      await storeOf(this)?.flush?.();
      this.result = await request<TestAnswer>(this.api, 'POST', `/forms/${encodeURIComponent((this.question as { form_id?: string }).form_id ?? formIdOf(this))}/questions/${encodeURIComponent(this.question.id)}/data-test`, { answers: this.samples });
    } catch (e) {
      this.failure = e instanceof Error ? e.message : String(e);
    } finally {
      this.testing = false;
    }
  }

  override render() {
    const p = this.props;
    const id = this.question.id;
    const params = this.rows('params');
    const mapping = this.rows('mapping');
    const r = this.result;
    return html`${textField('Source URL', p.source, (v) => this.set('source', v), { type: 'url', placeholder: 'https://api.example.com/customers', hint: 'The server calls it when a respondent reaches this step (Pro plan). It must answer JSON.' })}
      <div class="grid2">
        ${selectField('Method', p.method ?? 'GET', [['GET', 'GET (parameters in the query)'], ['POST', 'POST (parameters as JSON)']] as const, (v) => this.set('method', v))}
        ${numberField('Time limit (ms)', p.timeout_ms, (v) => this.set('timeout_ms', v), { min: 100, max: 10000, integer: true, hint: '5000 when empty' })}
      </div>
      <fieldset><legend>Parameters</legend>
        ${params.map(([k, v], i) => html`<div class="item"><div class="grid2">
            <label class="field">Name<input type="text" .value=${k} @change=${(e: Event) => this.setRows('params', params.map((x, j) => (j === i ? [(e.target as HTMLInputElement).value, x[1]] : x)))} /></label>
            <label class="field">Value<input type="text" .value=${v} @input=${(e: Event) => this.setRows('params', params.map((x, j) => (j === i ? [x[0], (e.target as HTMLInputElement).value] : x)))} /></label>
            <fl-recall .value=${v} at=${id} label="parameter ${k}"></fl-recall></div>
          <div class="btns"><button class="btn icon small danger" type="button" aria-label="Remove parameter ${k}" @click=${() => this.setRows('params', params.filter((_x, j) => j !== i))}>✕</button></div></div>`)}
        <div><button class="btn small" type="button" @click=${() => this.setRows('params', [...params, [`param${params.length + 1}`, '']])}>Add a parameter</button></div>
      </fieldset>
      <fieldset><legend>Secret header</legend>
        <div class="grid2">
          ${textField('Header name', p.secret_header_name, (v) => this.set('secret_header_name', v), { placeholder: 'Authorization' })}
          <label class="field">Value<input type="password" autocomplete="off" placeholder=${p.secret_header_set ? 'Stored: type to replace' : 'Bearer …'} @change=${(e: Event) => this.set('secret_header_value', (e.target as HTMLInputElement).value || undefined)} /></label>
        </div>
        <p class="muted hint">Kept encrypted on the server and never shown again.</p>
      </fieldset>
      <fieldset><legend>Keep from the answer</legend>
        ${mapping.map(([target, path], i) => {
          const [kind, name] = [target.split('.')[0] ?? 'var', target.slice(target.indexOf('.') + 1)];
          const put = (t: string, pth: string) => this.setRows('mapping', mapping.map((x, j) => (j === i ? [t, pth] : x)));
          return html`<div class="item"><div class="grid2">
              <label class="field">Into<select @change=${(e: Event) => put(`${(e.target as HTMLSelectElement).value}.${name}`, path)}>
                <option value="var" ?selected=${kind === 'var'}>Variable</option><option value="hidden" ?selected=${kind === 'hidden'}>Hidden field</option></select></label>
              <label class="field">Named<input type="text" .value=${name} @change=${(e: Event) => put(`${kind}.${(e.target as HTMLInputElement).value}`, path)} /></label>
              <label class="field">JSONPath<input type="text" .value=${path} placeholder="$.customer.plan" @change=${(e: Event) => put(target, (e.target as HTMLInputElement).value)} /></label></div>
            <div class="btns"><button class="btn icon small danger" type="button" aria-label="Remove ${target}" @click=${() => this.setRows('mapping', mapping.filter((_x, j) => j !== i))}>✕</button></div></div>`;
        })}
        <div><button class="btn small" type="button" @click=${() => this.setRows('mapping', [...mapping, [`var.value${mapping.length + 1}`, '$.value']])}>Add a value</button></div>
      </fieldset>
      <div class="grid2">
        ${textField('Status hidden field', p.status_field, (v) => this.set('status_field', v), { hint: 'Set to ok or failed: a jump on "failed" is the fallback path.' })}
        ${numberField('Reuse an answer for (seconds)', p.cache_seconds, (v) => this.set('cache_seconds', v), { min: 0, max: 86400, integer: true, hint: 'For the same parameters; 0 or empty: never.' })}
      </div>
      <fieldset><legend>Test the call</legend>
        ${this.recalled().map((q) => html`<label class="field">Sample for “${q.title}”<input type="text" .value=${this.samples[q.id] ?? ''} @input=${(e: Event) => (this.samples = { ...this.samples, [q.id]: (e.target as HTMLInputElement).value })} /></label>`)}
        <div><button class="btn small" type="button" ?disabled=${this.testing || !p.source} @click=${() => void this.test()}>${this.testing ? 'Calling…' : 'Test the call'}</button></div>
        <div role="status">
          ${this.failure ? html`<p class="error">${this.failure}</p>` : nothing}
          ${r ? html`<p>${r.status === 'ok' ? `The source answered ${r.http_status}.` : `The call failed: ${r.error}`}</p>
            ${Object.keys(r.variables).length || Object.keys(r.hidden).length ? html`<ul>${[...Object.entries(r.variables).map(([k, v]) => html`<li>Variable <code>${k}</code>: ${String(v)}</li>`), ...Object.entries(r.hidden).map(([k, v]) => html`<li>Hidden field <code>${k}</code>: ${v}</li>`)]}</ul>` : nothing}
            ${r.body != null ? html`<pre class="answer" tabindex="0" aria-label="The source's answer">${JSON.stringify(r.body, null, 2).slice(0, 4000)}</pre>` : nothing}` : nothing}
        </div>
      </fieldset>`;
  }
}
customElements.get('fl-data-node-editor') || customElements.define('fl-data-node-editor', FlDataNodeEditor);

/** The form being edited, from the builder's store (its draft) or the page's address (`/forms/<id>/...`). */
function formIdOf(from: Node): string {
  const draft = storeOf(from)?.draft as { id?: string } | undefined;
  return draft?.id ?? /\/forms\/([^/]+)/.exec(location.pathname)?.[1] ?? '';
}
