import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { readAccount } from '../../data/auth';
import { listPeople, setPlan, PLANS, type AdminPerson, type PeopleFilter } from '../../data/admin';
import { errorLine, messageOf } from '../auth/auth-card';
import { sectionStyles, when } from '../account/account-styles';
import { adminStyles, planLabel } from './admin-styles';
import './admin-person';
import './admin-outbox';
import './admin-backups';
import '../account/respondent-data';

const PAGE = 50;

/**
 * `<fl-admin>` at `/admin` and `/admin/outbox` (docs/workspace.md, "The admin area"): the instance admin's
 * people (search, plan, credits, API keys) and the mails and deliveries that could not go out. What the CLI
 * does, without a terminal. Anyone else sees a plain refusal; the server refuses them too (403).
 */
export class FlAdmin extends LitElement {
  static override styles = [tokens, controls, sectionStyles, adminStyles, css`:host { max-width: 60rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }`];
  static override properties = {
    api: { attribute: false },
    base: {},
    tab: {},
    allowed: { state: true },
    me: { state: true },
    people: { state: true },
    total: { state: true },
    filter: { state: true },
    open: { state: true },
    error: { state: true },
    busy: { state: true },
  };
  api!: Api;
  base = '';
  tab = '';
  allowed: boolean | null = null;
  me: string | null = null;
  people: AdminPerson[] = [];
  total = 0;
  filter: PeopleFilter = {};
  open: string | null = null;
  error: string | null = null;
  busy = false;
  private shown = PAGE;

  override connectedCallback(): void {
    super.connectedCallback();
    readAccount(this.api).then(
      (a) => {
        this.allowed = a.is_admin;
        this.me = a.user.id;
        if (a.is_admin) void this.load();
      },
      (e) => (this.error = messageOf(e)),
    );
  }

  private async load() {
    try {
      const r = await listPeople(this.api, this.filter, 0, this.shown);
      this.people = r.people;
      this.total = r.total;
      this.error = null;
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  private onFilter(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    this.filter = { q: String(data.get('q') ?? '').trim(), plan: String(data.get('plan') ?? ''), verified: String(data.get('verified') ?? ''), admin: String(data.get('admin') ?? '') };
    this.shown = PAGE;
    void this.load();
  }

  private more() {
    this.shown += PAGE;
    void this.load();
  }

  /** The admin's own plan, in one click: self-hosting owners are not billed, so nothing stays locked for them. */
  private async upgradeMe() {
    if (!this.me) return;
    this.busy = true;
    try {
      await setPlan(this.api, this.me, 'enterprise');
      await this.load();
    } catch (e) {
      this.error = messageOf(e);
    } finally {
      this.busy = false;
    }
  }

  private renderPeople() {
    const mine = this.people.find((p) => p.user_id === this.me);
    return html`
      ${mine && mine.plan !== 'enterprise'
        ? html`<div class="notice" role="status"><p>Your own account is on the ${planLabel(mine.plan)} plan, so webhooks, signing or the audit log may be locked for you.</p>
            <div class="row" style="margin-top:.5rem"><button class="btn small primary" type="button" ?disabled=${this.busy} @click=${() => void this.upgradeMe()}>Move my account to Enterprise</button></div></div>`
        : nothing}
      <form class="filters" role="search" aria-label="Find people" @submit=${this.onFilter}>
        <label class="field grow">Name or email<input name="q" type="search" .value=${this.filter.q ?? ''} /></label>
        <label class="field">Plan<select name="plan">
          <option value="">Any plan</option>
          ${PLANS.map((p) => html`<option value=${p} ?selected=${this.filter.plan === p}>${planLabel(p)}</option>`)}
        </select></label>
        <label class="field">Email<select name="verified">
          <option value="">Confirmed or not</option>
          <option value="true" ?selected=${this.filter.verified === 'true'}>Confirmed</option>
          <option value="false" ?selected=${this.filter.verified === 'false'}>Not confirmed</option>
        </select></label>
        <label class="field">Role<select name="admin">
          <option value="">Anyone</option>
          <option value="true" ?selected=${this.filter.admin === 'true'}>The admin</option>
          <option value="false" ?selected=${this.filter.admin === 'false'}>Everyone else</option>
        </select></label>
        <button class="btn" type="submit">Search</button>
      </form>
      <p class="muted" role="status">${this.total === 1 ? '1 person' : `${this.total} people`}</p>
      <ul class="people">
        ${this.people.map((p) => {
          const name = [p.first_name, p.last_name].filter(Boolean).join(' ');
          const isOpen = this.open === p.user_id;
          return html`<li>
            <button class="person-row" type="button" aria-expanded=${isOpen ? 'true' : 'false'} @click=${() => (this.open = isOpen ? null : p.user_id)}>
              <span class="what"><strong>${name || p.email}</strong>${name ? html`<span class="meta">${p.email}</span>` : nothing}</span>
              <span class="tags">
                <span class="badge">${planLabel(p.plan)}</span>
                ${p.is_admin ? html`<span class="badge ok">Admin</span>` : nothing}
                ${p.email_verified ? nothing : html`<span class="badge">Not confirmed</span>`}
                <span class="meta">Joined ${when(p.created_at)}</span>
              </span>
            </button>
            ${isOpen ? html`<fl-admin-person .api=${this.api} user-id=${p.user_id} @fl-person-changed=${() => void this.load()}></fl-admin-person>` : nothing}
          </li>`;
        })}
      </ul>
      ${this.people.length < this.total ? html`<button class="btn" type="button" @click=${this.more}>Show more</button>` : nothing}`;
  }

  override render() {
    if (this.allowed === false) {
      return html`<h1>Admin area</h1><p>Only the administrator of this server can open this page.</p>`;
    }
    const tab = this.tab === 'outbox' || this.tab === 'backups' || this.tab === 'respondents' ? this.tab : 'people';
    const current = (t: string) => (tab === t ? 'page' : nothing);
    const body =
      tab === 'outbox'
        ? html`<fl-admin-outbox .api=${this.api}></fl-admin-outbox>`
        : tab === 'backups'
          ? html`<fl-admin-backups .api=${this.api}></fl-admin-backups>`
          : tab === 'respondents'
            ? html`<fl-respondent-data .api=${this.api} scope="admin"></fl-respondent-data>`
            : this.renderPeople();
    return html`<h1>Admin area</h1>
      <nav class="tabs" aria-label="Admin area">
        <a href="${this.base}/admin" aria-current=${current('people')}>People</a>
        <a href="${this.base}/admin/outbox" aria-current=${current('outbox')}>Stuck mail and deliveries</a>
        <a href="${this.base}/admin/backups" aria-current=${current('backups')}>Backups</a>
        <a href="${this.base}/admin/respondents" aria-current=${current('respondents')}>A respondent's data</a>
      </nav>
      ${errorLine(this.error)}
      ${this.allowed === null ? html`<p class="muted" role="status">Loading…</p>` : body}`;
  }
}
customElements.get('fl-admin') || customElements.define('fl-admin', FlAdmin);
