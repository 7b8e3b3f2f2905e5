import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError, type Api } from '../../data/client';
import { AUDIT_ACTIONS, listAudit, listMembers, type AuditFilters, type AuditList, type TeamMember } from '../../data/teams';
import { errorLine } from '../auth/auth-card';
import { sectionStyles } from '../account/account-styles';
import { failure, when } from './team-events';
import { ACTION_LABELS, auditSentence } from './audit-sentences';

/**
 * `<fl-team-audit team-id>`: the team's audit log with its filters (action, member, dates), for owners and
 * admins. On plans without audit logs the API answers 403 with `upgrade_required`: the section says so.
 */
export class FlTeamAudit extends LitElement {
  static override styles = [
    tokens,
    controls,
    sectionStyles,
    css`
      form.filters { grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); align-items: end; }
      .sentence { overflow-wrap: anywhere; }
      .upgrade { padding: 0.75rem; border-radius: var(--_radius); border: 1px solid var(--_border); background: var(--_bg); }
    `,
  ];
  static override properties = { api: { attribute: false }, teamId: { attribute: 'team-id' }, list: { state: true }, members: { state: true }, upgrade: { state: true }, error: { state: true }, filters: { state: true } };
  api!: Api;
  teamId = '';
  list: AuditList | null = null;
  members: TeamMember[] = [];
  upgrade: string | null = null;
  error: string | null = null;
  filters: AuditFilters = { page: 1 };

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('teamId') && this.teamId) {
      void this.load();
      listMembers(this.api, this.teamId).then((m) => (this.members = m.members), () => undefined);
    }
  }

  private async load() {
    this.error = null;
    try {
      this.list = await listAudit(this.api, this.teamId, this.filters);
    } catch (e) {
      if (e instanceof ApiError && e.status === 403 && (e.details as { upgrade_required?: boolean } | undefined)?.upgrade_required) this.upgrade = e.message;
      else this.error = failure(this, e);
    }
  }

  private onFilter(e: Event) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const get = (k: string) => String(data.get(k) ?? '') || undefined;
    this.filters = { action: get('action'), user_id: get('user_id'), since: get('since'), until: get('until'), page: 1 };
    void this.load();
  }

  private go(page: number) {
    this.filters = { ...this.filters, page };
    void this.load();
  }

  override render() {
    if (this.upgrade) {
      return html`<section class="card" aria-labelledby="audit-h">
        <h2 id="audit-h">Audit log</h2>
        <div class="upgrade"><p><strong>${this.upgrade}.</strong></p><p class="meta">The audit log records who changed the team, its members, invitations, branding and forms. The team owner can upgrade to the Enterprise plan to read it here.</p></div>
      </section>`;
    }
    const l = this.list;
    const pages = l ? Math.max(1, Math.ceil(l.total / l.per_page)) : 1;
    return html`<section class="card" aria-labelledby="audit-h">
      <h2 id="audit-h">Audit log</h2>
      <form class="filters" @submit=${this.onFilter}>
        <label class="field">Action<select name="action"><option value="">Any action</option>${AUDIT_ACTIONS.map((a) => html`<option value=${a}>${ACTION_LABELS[a] ?? a}</option>`)}</select></label>
        <label class="field">Member<select name="user_id"><option value="">Anyone</option>${this.members.map((m) => html`<option value=${m.user_id}>${m.email}</option>`)}</select></label>
        <label class="field">From<input type="date" name="since" /></label>
        <label class="field">To<input type="date" name="until" /></label>
        <button class="btn" type="submit">Filter</button>
      </form>
      ${errorLine(this.error)}
      ${l === null
        ? this.error ? nothing : html`<p class="muted" role="status">Loading…</p>`
        : l.events.length === 0
          ? html`<p class="muted" role="status">No events match.</p>`
          : html`<ul class="rows" aria-label="Audit events">
              ${l.events.map(
                (ev) => html`<li>
                  <div class="what"><span class="sentence">${auditSentence(ev, this.members)}</span><span class="meta">${when(ev.timestamp)}${ev.ip_address ? ` · from ${ev.ip_address}` : ''}</span></div>
                </li>`,
              )}
            </ul>
            <div class="row"><span class="meta">${l.total} ${l.total === 1 ? 'event' : 'events'} · page ${l.page} of ${pages}</span>
              ${l.page > 1 ? html`<button class="btn small" type="button" @click=${() => this.go(l.page - 1)}>Newer</button>` : nothing}
              ${l.page < pages ? html`<button class="btn small" type="button" @click=${() => this.go(l.page + 1)}>Older</button>` : nothing}</div>`}
    </section>`;
  }
}
customElements.get('fl-team-audit') || customElements.define('fl-team-audit', FlTeamAudit);
