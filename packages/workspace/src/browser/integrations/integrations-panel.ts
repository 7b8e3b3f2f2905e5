import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError, type Api } from '../../data/client';
import { listTeams } from '../../data/forms';
import {
  getFormWebhook, getWebhookSecret, listDeliveries, listGlobalWebhooks, replaceGlobalWebhooks, resendDelivery, rotateWebhookSecret, sendTestWebhook, setFormWebhook,
  type Delivery, type GlobalWebhook,
} from '../../data/webhooks';
import '../controls/confirm-dialog';
import './notifications-card';
import './integrations-card';
import type { FlConfirm } from '../controls/confirm-dialog';
import { deliveryTable, deliveryTableStyles } from './delivery-table';

/**
 * `<fl-integrations-panel>`: the builder's Integrations tab (docs/workspace.md, "Integrations"): the form's
 * webhook, the account's global webhooks (at most 5, each enabled or not), the signing secret shown on
 * request and rotated after a confirmation, the form's delivery log with resend, and the mails about
 * responses (`<fl-notifications-card>`), and above them the form's integrations (`<fl-integrations-card>`).
 */
export class FlIntegrationsPanel extends LitElement {
  static override styles = [
    tokens,
    controls,
    deliveryTableStyles,
    css`
      :host { display: block; }
      .wrap { max-width: 60rem; margin: 0 auto; padding: 1rem; display: grid; gap: 1rem; }
      .hooks { display: grid; gap: 0.5rem; }
      .hook .url { overflow-wrap: anywhere; min-width: 0; }
      .hook .btn { justify-self: start; }
      .hook { display: grid; grid-template-columns: minmax(0, 1fr) auto auto; gap: 0.5rem; align-items: center; }
      code.secret { overflow-wrap: anywhere; background: var(--_bg); padding: 0.4rem 0.5rem; border-radius: var(--_radius); display: block; }
      p { margin: 0; line-height: 1.45; }
      @media (max-width: 480px) { .wrap { padding: 0.75rem 0.5rem; } .hook { grid-template-columns: minmax(0, 1fr) auto; } }
    `,
  ];
  static override properties = {
    store: { attribute: false },
    formUrl: { state: true },
    globals: { state: true },
    secret: { state: true },
    deliveries: { state: true },
    error: { state: true },
    blocked: { state: true },
    notice: { state: true },
    canEdit: { state: true },
  };
  store: { api: Api; formId: string; draft?: { team_id?: string | null } } | null = null;
  /** False for a team viewer: the log and the URL only, no controls (the API would refuse them). */
  canEdit = false;
  formUrl = '';
  globals: GlobalWebhook[] = [];
  secret: string | null = null;
  deliveries: Delivery[] | null = null;
  error = '';
  /** The API refused (403): the plan has no webhooks, or the role may not see them. */
  blocked = '';
  notice = '';
  private started = false;

  override willUpdate() {
    if (this.store && !this.started) {
      this.started = true;
      void this.load();
    }
  }

  private get api() {
    return this.store!.api;
  }
  private get formId() {
    return this.store!.formId;
  }

  private async guard(work: () => Promise<void>) {
    try {
      await work();
      this.error = '';
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) this.blocked = e.message;
      else this.error = (e as Error).message;
    }
  }

  private load() {
    return this.guard(async () => {
      const teamId = this.store!.draft?.team_id ?? null;
      const role = teamId ? (await listTeams(this.api).catch(() => null))?.teams.find((t) => t.id === teamId)?.your_role : 'owner';
      this.canEdit = role !== undefined && role !== 'viewer';
      const [form, deliveries] = await Promise.all([getFormWebhook(this.api, this.formId), listDeliveries(this.api, this.formId)]);
      this.formUrl = form.webhook_url ?? '';
      this.deliveries = deliveries.deliveries;
      // Global webhooks and the secret are the signed-in account's own: shown to those who may edit.
      if (this.canEdit) this.globals = (await listGlobalWebhooks(this.api)).webhooks;
    });
  }

  private say(text: string) {
    this.notice = text;
  }

  private get confirm() {
    return this.renderRoot.querySelector('fl-confirm') as FlConfirm;
  }

  private saveForm(url: string | null) {
    return this.guard(async () => {
      const r = await setFormWebhook(this.api, this.formId, url);
      this.formUrl = r.webhook_url ?? '';
      this.say(url ? 'Form webhook saved.' : 'Form webhook removed.');
    });
  }

  private saveGlobals(next: GlobalWebhook[], message: string) {
    return this.guard(async () => {
      this.globals = (await replaceGlobalWebhooks(this.api, next)).webhooks;
      this.say(message);
    });
  }

  private async rotate() {
    const ok = await this.confirm.ask({
      heading: 'Rotate the signing secret?',
      body: 'The old secret stops working at once: receivers that check signatures reject deliveries until they have the new one.',
      confirmText: 'Rotate secret',
      danger: true,
    });
    if (!ok) return;
    await this.guard(async () => {
      this.secret = (await rotateWebhookSecret(this.api)).secret;
      this.say('Secret rotated. The new one is shown.');
    });
  }

  private sendTest() {
    return this.guard(async () => {
      const r = await sendTestWebhook(this.api, this.formId);
      this.deliveries = (await listDeliveries(this.api, this.formId)).deliveries;
      this.say(`Test delivery queued to ${r.deliveries.length} webhook${r.deliveries.length === 1 ? '' : 's'}.`);
    });
  }

  private resend(d: Delivery) {
    return this.guard(async () => {
      await resendDelivery(this.api, this.formId, d.id);
      this.deliveries = (await listDeliveries(this.api, this.formId)).deliveries;
      this.say('Delivery queued to be sent again.');
    });
  }

  private renderLog() {
    const list = this.deliveries ?? [];
    if (!list.length) return html`<p class="muted">No deliveries yet. Each response is sent to the form's webhook and to the enabled global webhooks.</p>`;
    return deliveryTable(list, {
      testEvent: 'webhook.test',
      target: { header: 'Webhook', of: (d) => d.url },
      again: this.canEdit ? { label: 'Resend', when: (d) => d.status === 'failed', run: (d) => void this.resend(d) } : undefined,
    });
  }

  override render() {
    // Mails about responses come with every plan: shown even where webhooks are not.
    const mails = this.store ? html`<fl-notifications-card .api=${this.api} .formId=${this.formId} .canEdit=${this.canEdit}></fl-notifications-card>` : nothing;
    // Integrations (Slack, Zapier... docs/integrations.md) come with every plan, like the mails.
    const services = this.store && (this.deliveries || this.blocked) ? html`<fl-integrations-card .api=${this.api} .formId=${this.formId} .canEdit=${this.canEdit}></fl-integrations-card>` : nothing;
    if (this.blocked) {
      return html`<div class="wrap"><h2 class="sr-only">Integrations</h2>${services}<section class="card" role="alert"><h2>Webhooks are not available</h2><p>${this.blocked}</p>
        <p class="muted">Webhooks come with the Pro plan and higher; on a team form they follow your role.</p></section>${mails}</div>`;
    }
    if (!this.deliveries && !this.error) return html`<div class="wrap"><p class="muted" role="status">Loading integrations…</p></div>`;
    return html`<div class="wrap">
      <h2 class="sr-only">Integrations</h2>
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      <p class="sr-only" role="status" aria-live="polite">${this.notice}</p>
      ${services}
      ${this.canEdit ? nothing : html`<section class="card stack" aria-labelledby="h-form"><h3 id="h-form">This form's webhook</h3>
        <p>${this.formUrl || html`<span class="muted">None set.</span>`}</p><p class="muted">Your role can read the webhook and its deliveries; editors and admins change them.</p></section>`}
      ${this.canEdit ? html`<section class="card stack" aria-labelledby="h-form">
        <h3 id="h-form">This form's webhook</h3>
        <p class="muted">Each response to this form is sent here as a signed POST.</p>
        <form class="row" @submit=${(e: Event) => { e.preventDefault(); const v = (this.renderRoot.querySelector('#form-url') as HTMLInputElement).value.trim(); void this.saveForm(v || null); }}>
          <label class="field" style="flex: 1 1 16rem">Webhook URL<input id="form-url" type="url" placeholder="https://example.com/hooks/formloom" .value=${this.formUrl} /></label>
          <button class="btn primary" type="submit">Save</button>
          ${this.formUrl ? html`<button class="btn" type="button" @click=${() => void this.saveForm(null)}>Remove</button>` : nothing}
        </form>
      </section>
      <section class="card stack" aria-labelledby="h-global">
        <h3 id="h-global">Global webhooks (all your forms)</h3>
        <div class="hooks">
          ${this.globals.map((w, i) => html`<div class="hook">
            <span class="url">${w.url}</span>
            <label class="check"><input type="checkbox" .checked=${w.enabled} @change=${(e: Event) => void this.saveGlobals(this.globals.map((x, j) => (j === i ? { ...x, enabled: (e.target as HTMLInputElement).checked } : x)), 'Saved.')} />Enabled</label>
            <button class="btn small danger" type="button" aria-label="Remove ${w.url}" @click=${() => void this.saveGlobals(this.globals.filter((_, j) => j !== i), 'Global webhook removed.')}>Remove</button>
          </div>`)}
        </div>
        ${this.globals.length < 5
          ? html`<form class="row" @submit=${(e: Event) => { e.preventDefault(); const input = this.renderRoot.querySelector('#global-url') as HTMLInputElement; const url = input.value.trim(); if (url) void this.saveGlobals([...this.globals, { url, enabled: true }], 'Global webhook added.').then(() => { if (!this.error) input.value = ''; }); }}>
              <label class="field" style="flex: 1 1 16rem">New global webhook URL<input id="global-url" type="url" placeholder="https://example.com/hooks/all" /></label>
              <button class="btn" type="submit">Add</button></form>`
          : html`<p class="muted">At most 5 global webhooks.</p>`}
      </section>
      <section class="card stack" aria-labelledby="h-secret">
        <h3 id="h-secret">Signing secret</h3>
        <p class="muted">Every delivery carries X-Service-Signature, the HMAC-SHA256 of its body with this secret.</p>
        ${this.secret ? html`<code class="secret" aria-label="Signing secret">${this.secret}</code>` : nothing}
        <div class="row">
          ${this.secret
            ? html`<button class="btn" type="button" @click=${() => (this.secret = null)}>Hide secret</button>`
            : html`<button class="btn" type="button" @click=${() => void this.guard(async () => void (this.secret = (await getWebhookSecret(this.api)).secret))}>Show secret</button>`}
          <button class="btn danger" type="button" @click=${() => void this.rotate()}>Rotate secret</button>
        </div>
      </section>` : nothing}
      <section class="card stack" aria-labelledby="h-log">
        <div class="row" style="justify-content: space-between"><h3 id="h-log">Delivery log</h3>
          <div class="row">${this.canEdit ? html`<button class="btn small" type="button" ?disabled=${!this.formUrl && !this.globals.some((g) => g.enabled)} @click=${() => void this.sendTest()}>Send a test delivery</button>` : nothing}
          <button class="btn small" type="button" @click=${() => void this.load()}>Refresh</button></div></div>
        ${this.renderLog()}
      </section>
      ${mails}
      <fl-confirm></fl-confirm>
    </div>`;
  }
}
customElements.get('fl-integrations-panel') || customElements.define('fl-integrations-panel', FlIntegrationsPanel);
