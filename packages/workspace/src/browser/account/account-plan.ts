import { LitElement, html } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { getTeam, listTeams, type TeamDetail } from '../../data/teams';
import { messageOf } from '../auth/auth-card';
import { teamPath } from '../shell/routes';
import { sectionStyles } from './account-styles';

/**
 * `<fl-account-plan plan>` on the account page: your plan and, for each team you own, the seats it uses of
 * that plan (`seats` of `GET /teams/:id`, docs/teams.md). Teams owned by others count against their plans.
 */
export class FlAccountPlan extends LitElement {
  static override styles = [tokens, controls, sectionStyles];
  static override properties = { api: { attribute: false }, base: {}, plan: {}, owned: { state: true }, error: { state: true } };
  api!: Api;
  base = '';
  plan = '';
  owned: TeamDetail[] | null = null;
  error: string | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      const { teams } = await listTeams(this.api);
      this.owned = await Promise.all(teams.filter((t) => t.your_role === 'owner').map((t) => getTeam(this.api, t.id)));
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  override render() {
    return html`<section class="card" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan and seats</h2>
      <p>Your plan: <strong>${this.plan}</strong>. The teams you own take their seats from it (members and pending invitations).</p>
      ${this.error
        ? html`<p class="error-text on" role="alert">${this.error}</p>`
        : this.owned === null
          ? html`<p class="muted" role="status">Loading…</p>`
          : this.owned.length === 0
            ? html`<p class="muted">You own no team. <a href="${this.base}/teams">Create one</a>.</p>`
            : html`<ul class="rows" aria-label="Seats of the teams you own">
                ${this.owned.map(
                  (t) => html`<li><a href=${teamPath(this.base, t.id)}>${t.name}</a>
                    <span class="meta">${t.seats ? (t.seats.limit === null ? `${t.seats.used} seats used (no limit)` : `${t.seats.used} of ${t.seats.limit} seats used`) : `${t.member_count} members`}</span></li>`,
                )}
              </ul>`}
    </section>`;
  }
}
customElements.get('fl-account-plan') || customElements.define('fl-account-plan', FlAccountPlan);
