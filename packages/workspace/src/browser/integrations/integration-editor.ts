import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import {
  createIntegration, deleteIntegration, listIntegrationDeliveries, retryIntegrationDelivery, testIntegration, updateIntegration,
  type FieldMapping, type Integration, type IntegrationDelivery, type IntegrationField, type IntegrationTest, type IntegrationType,
} from '../../data/integrations';
import type { FlConfirm } from '../controls/confirm-dialog';
import '../controls/confirm-dialog';
import { deliveryTable, deliveryTableStyles } from './delivery-table';

export interface MappableQuestion {
  id: string;
  title: string;
}

/**
 * `<fl-integration-editor>`: one integration of the form (docs/integrations.md): the settings form its plugin
 * describes (secret fields write-only), which answers are sent and under which names, Save, Send test with the
 * receiver's answer, pause / resume, delete, and the delivery log. Read-only for those who may not edit.
 * Dispatches `changed` (the list reloads) and `close`.
 */
export class FlIntegrationEditor extends LitElement {
  static override styles = [
    tokens,
    controls,
    deliveryTableStyles,
    css`
      :host { display: grid; gap: 1rem; min-width: 0; }
      .stack > *, form > * { min-width: 0; }
      fieldset { border: 0; margin: 0; padding: 0; display: grid; gap: 0.5rem; min-width: 0; }
      legend { font-weight: 600; margin-bottom: 0.35rem; }
      .help { font-size: 0.85rem; margin: 0; }
      .map { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 0.35rem 0.6rem; align-items: center; }
      .map input[type='text'] { min-width: 0; width: 100%; }
      .answer { border-left: 3px solid var(--_border); padding: 0.4rem 0.6rem; overflow-wrap: anywhere; }
      .answer.ok { border-color: var(--_success); }
      .answer.bad { border-color: var(--_danger); }
      .answer pre { margin: 0.3rem 0 0; white-space: pre-wrap; font-size: 0.8rem; max-height: 10rem; overflow: auto; }
      h3:focus { outline: none; }
      p { margin: 0; line-height: 1.45; }
    `,
  ];
  static override properties = {
    api: { attribute: false },
    formId: { attribute: false },
    canEdit: { attribute: false },
    type: { attribute: false },
    integration: { attribute: false },
    questions: { attribute: false },
    chosen: { state: true },
    deliveries: { state: true },
    tested: { state: true },
    busy: { state: true },
    error: { state: true },
    notice: { state: true },
  };
  api: Api | null = null;
  formId = '';
  canEdit = false;
  type: IntegrationType | null = null;
  integration: Integration | null = null;
  questions: MappableQuestion[] = [];
  /** The mapping as edited: question id -> name ('' = its title); absent = not sent. */
  chosen: Map<string, string> | null = null;
  deliveries: IntegrationDelivery[] | null = null;
  tested: IntegrationTest | null = null;
  busy = false;
  error = '';
  notice = '';
  private loadedFor = '';

  override willUpdate() {
    if (!this.chosen && this.questions.length) {
      const fields = this.integration?.fields;
      this.chosen = new Map(fields ? fields.map((f) => [f.question_id, f.name]) : this.questions.map((q) => [q.id, '']));
    }
    const id = this.integration?.id ?? '';
    if (id && this.api && this.loadedFor !== id) {
      this.loadedFor = id;
      void this.loadLog();
    }
  }

  override firstUpdated() {
    (this.renderRoot.querySelector('h3') as HTMLElement | null)?.focus();
  }

  private async run(work: () => Promise<void>) {
    this.busy = true;
    try {
      await work();
      this.error = '';
    } catch (e) {
      this.error = (e as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private async loadLog() {
    if (!this.integration) return;
    try {
      this.deliveries = (await listIntegrationDeliveries(this.api!, this.formId, this.integration.id)).deliveries;
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  private changed(next: Integration | null) {
    this.dispatchEvent(new CustomEvent('changed', { detail: next }));
  }

  /** The mapping to save: null while every question is sent under its title (new questions then follow too). */
  private mapping(): FieldMapping {
    const c = this.chosen ?? new Map();
    const all = this.questions.every((q) => c.has(q.id) && !c.get(q.id)) && c.size === this.questions.length;
    if (all) return null;
    return this.questions.filter((q) => c.has(q.id)).map((q) => ({ question_id: q.id, name: c.get(q.id) || null }));
  }

  private save(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const config: Record<string, string | boolean | null> = {};
    for (const f of this.type!.fields) {
      const el = form.elements.namedItem(`cfg-${f.key}`) as HTMLInputElement | null;
      if (!el) continue;
      if (f.type === 'checkbox') config[f.key] = el.checked;
      else if (!(f.secret && el.value === '')) config[f.key] = el.value;
    }
    const name = (form.elements.namedItem('name') as HTMLInputElement).value.trim();
    const body = { name, config, ...(this.type!.mapping ? { fields: this.mapping() } : {}) };
    return this.run(async () => {
      const saved = this.integration
        ? await updateIntegration(this.api!, this.formId, this.integration.id, body)
        : await createIntegration(this.api!, this.formId, { type: this.type!.type, ...body });
      this.notice = this.integration ? 'Saved.' : `${this.type!.title} added. Send a test to check it.`;
      this.integration = saved;
      for (const f of this.type!.fields) if (f.secret) (form.elements.namedItem(`cfg-${f.key}`) as HTMLInputElement).value = '';
      this.changed(saved);
    });
  }

  private sendTest() {
    return this.run(async () => {
      this.tested = await testIntegration(this.api!, this.formId, this.integration!.id);
      this.notice = this.tested.ok ? 'The test was delivered.' : 'The test was not delivered.';
      await this.loadLog();
    });
  }

  private setStatus(status: 'active' | 'paused') {
    return this.run(async () => {
      this.integration = await updateIntegration(this.api!, this.formId, this.integration!.id, { status });
      this.notice = status === 'paused' ? 'Paused: new responses are not sent.' : 'Resumed: new responses are sent again.';
      this.changed(this.integration);
    });
  }

  private async confirmDelete() {
    const ok = await (this.renderRoot.querySelector('fl-confirm') as FlConfirm).ask({
      heading: `Delete ${this.integration!.name}?`,
      body: 'Responses are no longer sent to it, and its delivery log is deleted.',
      confirmText: 'Delete',
      danger: true,
    });
    if (!ok) return;
    await this.run(async () => {
      await deleteIntegration(this.api!, this.formId, this.integration!.id);
      this.changed(null);
      this.dispatchEvent(new CustomEvent('close', { detail: { deleted: true } }));
    });
  }

  private resend(d: IntegrationDelivery) {
    return this.run(async () => {
      await retryIntegrationDelivery(this.api!, this.formId, this.integration!.id, d.id);
      this.notice = 'Queued to be sent again.';
      await this.loadLog();
    });
  }

  private toggle(id: string, on: boolean) {
    const next = new Map(this.chosen);
    if (on) next.set(id, '');
    else next.delete(id);
    this.chosen = next;
  }

  private rename(id: string, name: string) {
    const next = new Map(this.chosen);
    next.set(id, name);
    this.chosen = next;
  }

  private renderField(f: IntegrationField) {
    const i = this.integration;
    const id = `cfg-${f.key}`;
    const set = !!i?.secrets_set.includes(f.key);
    const value = i ? i.config[f.key] : f.default;
    const help = [f.help, f.secret ? (set ? 'Saved and hidden. Type a new value only to replace it.' : 'Kept secret: never shown again after saving.') : null].filter(Boolean).join(' ');
    const described = help ? `${id}-help` : nothing;
    const disabled = !this.canEdit;
    let control;
    if (f.type === 'checkbox') {
      return html`<label class="check"><input id=${id} name=${id} type="checkbox" .checked=${value === true} ?disabled=${disabled} aria-describedby=${described} />${f.label}</label>
        ${help ? html`<p class="help muted" id="${id}-help">${help}</p>` : nothing}`;
    }
    if (f.type === 'select') {
      control = html`<select id=${id} name=${id} ?disabled=${disabled} aria-describedby=${described}>${(f.options ?? []).map((o) => html`<option value=${o.value} ?selected=${value === o.value}>${o.label}</option>`)}</select>`;
    } else if (f.type === 'textarea') {
      control = html`<textarea id=${id} name=${id} ?disabled=${disabled} ?required=${f.required && !set} placeholder=${f.placeholder ?? ''} aria-describedby=${described} .value=${f.secret ? '' : String(value ?? '')}></textarea>`;
    } else {
      control = html`<input id=${id} name=${id} type=${f.secret ? 'password' : f.type === 'url' ? 'url' : 'text'} autocomplete="off" ?disabled=${disabled}
        ?required=${f.required && !set} placeholder=${f.secret && set ? '••••••••  (saved)' : (f.placeholder ?? '')} aria-describedby=${described} .value=${f.secret ? '' : String(value ?? '')} />`;
    }
    return html`<label class="field">${f.label}${f.required ? ' (required)' : ''}${control}</label>
      ${help ? html`<p class="help muted" id="${id}-help">${help}</p>` : nothing}`;
  }

  private renderMapping() {
    if (!this.type?.mapping) return nothing;
    const c = this.chosen ?? new Map<string, string>();
    if (!this.questions.length) return html`<p class="muted">Add questions to the form to choose which answers are sent.</p>`;
    return html`<fieldset>
      <legend>Answers to send</legend>
      <p class="help muted">Tick the questions to send. A name replaces the question's title (a column or field name in ${this.type.title}).</p>
      <div class="map">
        ${this.questions.map((q) => html`
          <input type="checkbox" id="send-${q.id}" .checked=${c.has(q.id)} ?disabled=${!this.canEdit} @change=${(e: Event) => this.toggle(q.id, (e.target as HTMLInputElement).checked)} aria-label="Send ${q.title || 'Untitled question'}" />
          <input type="text" .value=${c.get(q.id) ?? ''} placeholder=${q.title || 'Untitled question'} ?disabled=${!this.canEdit || !c.has(q.id)}
            aria-label="Name for ${q.title || 'Untitled question'}" @input=${(e: Event) => this.rename(q.id, (e.target as HTMLInputElement).value)} />`)}
      </div>
    </fieldset>`;
  }

  private renderTest() {
    const r = this.tested;
    if (!r) return nothing;
    const who = this.type?.title ?? 'The service';
    return html`<div class="answer ${r.ok ? 'ok' : 'bad'}" role="region" aria-label="Test result">
      <p><strong>${r.ok ? 'Delivered.' : 'Not delivered.'}</strong> ${r.response_code !== null ? `${who} answered ${r.response_code}` : 'No answer came'}${r.error && !r.ok ? `: ${r.error}` : '.'}</p>
      ${r.response_excerpt ? html`<pre tabindex="0" aria-label="What ${who} answered">${r.response_excerpt}</pre>` : nothing}
    </div>`;
  }

  private renderLog() {
    if (!this.integration) return nothing;
    const list = this.deliveries ?? [];
    return html`<section class="stack" aria-labelledby="h-ilog">
      <div class="row" style="justify-content: space-between"><h4 id="h-ilog">Delivery log</h4><button class="btn small" type="button" @click=${() => void this.loadLog()}>Refresh</button></div>
      ${list.length
        ? deliveryTable(list, { testEvent: 'integration.test', again: this.canEdit ? { label: 'Send again', when: (d) => d.status !== 'delivered', run: (d) => void this.resend(d) } : undefined })
        : html`<p class="muted">Nothing sent yet. Each new response is sent here.</p>`}
    </section>`;
  }

  override render() {
    const t = this.type;
    const i = this.integration;
    if (!t) return html`<p class="muted">This integration's plugin is not installed on this server.</p>`;
    return html`<section class="card stack" aria-labelledby="h-edit">
      <div class="row" style="justify-content: space-between">
        <h3 id="h-edit" tabindex="-1">${i ? i.name : `Add ${t.title}`}</h3>
        <button class="btn small" type="button" @click=${() => this.dispatchEvent(new CustomEvent('close'))}>Back to integrations</button>
      </div>
      <p class="muted">${t.description}</p>
      ${i?.status === 'paused' ? html`<p><strong>Paused.</strong> New responses are not sent. ${i.paused_reason ?? ''}</p>` : nothing}
      ${this.canEdit ? nothing : html`<p class="muted">Your role can see this integration and its log; editors change it.</p>`}
      <form class="stack" @submit=${(e: Event) => void this.save(e)}>
        <label class="field">Name<input name="name" type="text" maxlength="200" .value=${i?.name ?? t.title} ?disabled=${!this.canEdit} /></label>
        ${t.fields.map((f) => this.renderField(f))}
        ${this.renderMapping()}
        ${this.canEdit
          ? html`<div class="row">
              <button class="btn primary" type="submit" ?disabled=${this.busy}>${i ? 'Save' : `Add ${t.title}`}</button>
              ${i ? html`<button class="btn" type="button" ?disabled=${this.busy} @click=${() => void this.sendTest()}>Send test</button>
                <button class="btn" type="button" ?disabled=${this.busy} @click=${() => void this.setStatus(i.status === 'paused' ? 'active' : 'paused')}>${i.status === 'paused' ? 'Resume' : 'Pause'}</button>
                <button class="btn danger" type="button" ?disabled=${this.busy} @click=${() => void this.confirmDelete()}>Delete</button>` : nothing}
            </div>`
          : nothing}
      </form>
      ${this.renderTest()}
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      <p class="sr-only" role="status" aria-live="polite">${this.notice}</p>
      ${this.renderLog()}
      <fl-confirm></fl-confirm>
    </section>`;
  }
}
customElements.get('fl-integration-editor') || customElements.define('fl-integration-editor', FlIntegrationEditor);
