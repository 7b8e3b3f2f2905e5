import { LitElement, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { addCredits, deletePerson, deletionPlan, getPerson, revokeKey, setPlan, PLANS, type AdminKey, type AdminPersonDetail } from '../../data/admin';
import { errorLine, messageOf } from '../auth/auth-card';
import { sectionStyles, when } from '../account/account-styles';
import type { FlConfirm } from '../controls/confirm-dialog';
import '../controls/confirm-dialog';
import { adminStyles, planLabel } from './admin-styles';

/**
 * `<fl-admin-person user-id>`: one person opened in the admin's list: their plan (changed at once, as
 * `formloom plan set`), credits (added as a purchase), and API keys (revoked at once). Fires
 * `fl-person-changed` after a change so the list shows it.
 */
export class FlAdminPerson extends LitElement {
  static override styles = [tokens, controls, sectionStyles, adminStyles];
  static override properties = {
    api: { attribute: false },
    userId: { attribute: 'user-id' },
    detail: { state: true },
    error: { state: true },
    said: { state: true },
    busy: { state: true },
  };
  api!: Api;
  userId = '';
  detail: AdminPersonDetail | null = null;
  error: string | null = null;
  said: string | null = null;
  busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    getPerson(this.api, this.userId).then(
      (d) => (this.detail = d),
      (e) => (this.error = messageOf(e)),
    );
  }

  private async act(work: () => Promise<string>) {
    this.busy = true;
    this.error = null;
    this.said = null;
    try {
      this.said = await work();
      this.detail = await getPerson(this.api, this.userId);
      this.dispatchEvent(new CustomEvent('fl-person-changed', { bubbles: true, composed: true }));
    } catch (e) {
      this.error = messageOf(e);
    } finally {
      this.busy = false;
    }
  }

  private onPlan(e: Event) {
    e.preventDefault();
    const plan = new FormData(e.currentTarget as HTMLFormElement).get('plan') as string;
    void this.act(async () => {
      await setPlan(this.api, this.userId, plan);
      return `Moved to the ${planLabel(plan)} plan.`;
    });
  }

  private onCredits(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const raw = String(new FormData(form).get('credits') ?? '').trim();
    const credits = Number(raw);
    if (!/^\d+$/.test(raw) || credits < 1) return void (this.error = 'Enter a whole number of credits, 1 or more.');
    void this.act(async () => {
      const r = await addCredits(this.api, this.userId, credits);
      form.reset();
      return `Added ${credits} credits. The balance is now ${r.credits}.`;
    });
  }

  private async onRevoke(key: AdminKey) {
    const ok = await this.renderRoot.querySelector<FlConfirm>('fl-confirm')!.ask({
      heading: 'Revoke this key?',
      body: 'Programs that use it stop working at once. This cannot be undone.',
      confirmText: 'Revoke',
      danger: true,
    });
    if (ok) void this.act(async () => (await revokeKey(this.api, this.userId, key.key_id), 'The key is revoked.'));
  }

  private async onDelete(who: string) {
    this.error = null;
    let plan;
    try {
      plan = await deletionPlan(this.api, this.userId);
    } catch (e) {
      return void (this.error = messageOf(e));
    }
    if (plan.blockers.length) return void (this.error = `${plan.blockers.map((b) => b.message).join('. ')}.`);
    const forms = plan.forms === 1 ? 'one form' : `${plan.forms} forms`;
    const ok = await this.renderRoot.querySelector<FlConfirm>('fl-confirm')!.ask({
      heading: `Delete ${who}?`,
      body: `Their account goes with ${forms}, ${plan.responses} responses and their files, their keys, sessions and passkeys${plan.teams_deleted.length ? `, and the teams only they are in (${plan.teams_deleted.map((t) => t.name).join(', ')})` : ''}.${plan.signed_contracts ? ` ${plan.signed_contracts} signed contracts go too.` : ''} This cannot be undone.`,
      confirmText: 'Delete the account',
      danger: true,
    });
    if (!ok) return;
    this.busy = true;
    try {
      await deletePerson(this.api, this.userId, plan.signed_contracts > 0);
      this.dispatchEvent(new CustomEvent('fl-person-changed', { bubbles: true, composed: true }));
    } catch (e) {
      this.error = messageOf(e);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const d = this.detail;
    if (!d) return html`${errorLine(this.error)}${this.error ? nothing : html`<p class="muted" role="status">Loading…</p>`}`;
    const who = d.person.email;
    return html`<div class="detail">
      <div class="row">
        <form class="row" @submit=${this.onPlan} aria-label="Change the plan of ${who}">
          <label class="field">Plan<select name="plan" aria-label="Plan">${PLANS.map((p) => html`<option value=${p} ?selected=${d.person.plan === p}>${planLabel(p)}</option>`)}</select></label>
          <button class="btn small" type="submit" ?disabled=${this.busy}>Change plan</button>
        </form>
        <form class="row" @submit=${this.onCredits} aria-label="Add credits for ${who}">
          <label class="field">Credits: ${d.credits}<input name="credits" inputmode="numeric" placeholder="How many to add" size="14" /></label>
          <button class="btn small" type="submit" ?disabled=${this.busy}>Add credits</button>
        </form>
      </div>
      ${this.said ? html`<p class="ok-text" role="status">${this.said}</p>` : nothing}
      ${errorLine(this.error)}
      <h2>API keys</h2>
      ${d.api_keys.length === 0
        ? html`<p class="muted">No API keys.</p>`
        : html`<ul class="rows">${d.api_keys.map((k) => html`<li>
            <span class="what"><strong>${k.scope === 'voice' ? 'Voice key' : 'Forms key'}</strong>
              <span class="meta">Made ${when(k.created_at)}${k.made_by === 'owner' ? ' by its owner' : ''}${k.monthly_limit ? ` · at most ${k.monthly_limit} credits a month` : ''}</span></span>
            ${k.revoked_at
              ? html`<span class="badge">Revoked ${when(k.revoked_at)}</span>`
              : html`<button class="btn small danger" type="button" ?disabled=${this.busy} @click=${() => void this.onRevoke(k)} aria-label="Revoke the key made ${when(k.created_at)}">Revoke</button>`}
          </li>`)}</ul>`}
      ${d.person.is_admin
        ? nothing
        : html`<div class="row"><button class="btn small danger" type="button" ?disabled=${this.busy} @click=${() => void this.onDelete(who)}>Delete this account</button></div>`}
      <fl-confirm></fl-confirm>
    </div>`;
  }
}
customElements.get('fl-admin-person') || customElements.define('fl-admin-person', FlAdminPerson);
