import { LitElement, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyItem } from '../../data/auth';
import { errorLine, messageOf } from '../auth/auth-card';
import { sectionStyles, when } from './account-styles';
import '../controls/confirm-dialog';
import type { FlConfirm } from '../controls/confirm-dialog';

/**
 * `<fl-api-keys>`: the signed-in person's API keys (docs/accounts.md, "API keys"): listed without secrets,
 * created with a name, scope and monthly limit (the secret is shown once, here, and never again), revoked
 * after a confirmation. A revoked key is refused at once on every instance.
 */
export class FlApiKeys extends LitElement {
  static override styles = [tokens, controls, sectionStyles];
  static override properties = {
    api: { attribute: false },
    keys: { state: true },
    error: { state: true },
    created: { state: true },
    busy: { state: true },
  };
  api!: Api;
  keys: ApiKeyItem[] | null = null;
  error: string | null = null;
  created: (ApiKeyItem & { api_key: string }) | null = null;
  busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.keys = await listApiKeys(this.api);
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  private async onCreate(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const limit = String(data.get('monthly_limit') ?? '').trim();
    if (limit && !/^\d+$/.test(limit)) return void (this.error = 'The monthly limit is a whole number of requests, or empty for none.');
    this.busy = true;
    this.error = null;
    try {
      const name = String(data.get('name') ?? '').trim();
      this.created = await createApiKey(this.api, { scope: data.get('scope') === 'voice' ? 'voice' : 'forms', monthly_limit: limit ? Number(limit) : null, ...(name ? { name } : {}) });
      form.reset();
      await this.load();
    } catch (err) {
      this.error = messageOf(err);
    } finally {
      this.busy = false;
    }
  }

  private async revoke(key: ApiKeyItem) {
    const ok = await this.renderRoot.querySelector<FlConfirm>('fl-confirm')!.ask({
      heading: 'Revoke this key?',
      body: html`<p>Programs using <strong>${key.name || key.key_id}</strong> stop working at once. This cannot be undone.</p>`,
      confirmText: 'Revoke',
      danger: true,
    });
    if (!ok) return;
    try {
      await revokeApiKey(this.api, key.key_id);
      if (this.created?.key_id === key.key_id) this.created = null;
      await this.load();
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  private async copy() {
    if (!this.created) return;
    await navigator.clipboard?.writeText(this.created.api_key).catch(() => undefined);
  }

  private renderKey(k: ApiKeyItem) {
    return html`<li>
      <div class="what">
        <strong>${k.name || k.key_id}</strong>
        <span class="meta">${k.scope} · ${k.monthly_limit === null ? 'no monthly limit' : `${k.monthly_limit} requests a month`} · created ${when(k.created_at)}</span>
      </div>
      ${k.revoked_at
        ? html`<span class="badge">revoked ${when(k.revoked_at)}</span>`
        : html`<button class="btn small danger" type="button" @click=${() => void this.revoke(k)} aria-label="Revoke ${k.name || k.key_id}">Revoke</button>`}
    </li>`;
  }

  override render() {
    return html`<section class="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p class="muted">Programs call the API with a key in <code>Authorization: Bearer …</code>. Forms, teams, webhooks and signing take <em>forms</em> keys; speech takes <em>voice</em> keys.</p>
      ${this.created
        ? html`<div class="notice" role="status">
            <p><strong>Copy your new key now:</strong> it is shown only once.</p>
            <p class="secret" data-secret>${this.created.api_key}</p>
            <div class="row"><button class="btn small" type="button" @click=${this.copy}>Copy</button><button class="btn small" type="button" @click=${() => (this.created = null)}>Done</button></div>
          </div>`
        : nothing}
      <form @submit=${this.onCreate}>
        <div class="grid2">
          <label class="field">Name<input name="name" maxlength="100" placeholder="e.g. CRM sync" /></label>
          <label class="field">Scope<select name="scope"><option value="forms">forms</option><option value="voice">voice</option></select></label>
          <label class="field">Monthly limit<input name="monthly_limit" inputmode="numeric" placeholder="none" /></label>
        </div>
        <div class="row"><button class="btn primary" type="submit" ?disabled=${this.busy}>Create key</button></div>
      </form>
      ${errorLine(this.error)}
      ${this.keys === null ? html`<p class="muted" role="status">Loading keys…</p>` : this.keys.length === 0 ? html`<p class="muted">No keys yet.</p>` : html`<ul class="rows">${this.keys.map((k) => this.renderKey(k))}</ul>`}
      <fl-confirm></fl-confirm>
    </section>`;
  }
}
customElements.get('fl-api-keys') || customElements.define('fl-api-keys', FlApiKeys);
