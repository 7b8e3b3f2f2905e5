import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError, type Api } from '../../data/client';
import { canManage, deleteTeam, getTeam, listTeams, renameTeam, type TeamDetail, type TeamRole } from '../../data/teams';
import { errorLine, messageOf } from '../auth/auth-card';
import { sectionStyles } from '../account/account-styles';
import { navigate } from '../shell/routes';
import type { FlConfirm } from '../controls/confirm-dialog';
import '../controls/confirm-dialog';
import './team-people';
import './team-branding';
import './team-audit';

/**
 * `<fl-team team-id>` at `/teams/:id` (docs/workspace.md, "Teams"): name, seats, members and invitations,
 * branding and the audit log. Controls follow `your_role` as the API does (docs/teams.md, the roles table); a
 * section that meets a 404 (the team was deleted elsewhere, or you were removed) sends `fl-team-gone` here.
 */
export class FlTeam extends LitElement {
  static override styles = [
    tokens,
    controls,
    sectionStyles,
    css`
      :host { max-width: 56rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
      .page { display: grid; gap: 1rem; }
      .idle { display: none; }
      .head { display: flex; justify-content: space-between; align-items: center; gap: 0.75rem; flex-wrap: wrap; }
      .head h1 { overflow-wrap: anywhere; }
      form.rename { grid-template-columns: 1fr auto; align-items: end; }
      @media (max-width: 480px) { form.rename { grid-template-columns: 1fr; } }
      .bar { height: 0.5rem; border-radius: 999px; background: var(--_bg); border: 1px solid var(--_border); overflow: hidden; }
      .bar span { display: block; height: 100%; background: var(--_primary); }
      .gone { text-align: center; padding: 2rem 1rem; display: grid; gap: 0.75rem; justify-items: center; }
    `,
  ];
  static override properties = {
    api: { attribute: false },
    base: {},
    teamId: { attribute: 'team-id' },
    team: { state: true },
    yourRole: { state: true },
    error: { state: true },
    gone: { state: true },
    renameMsg: { state: true },
    renameError: { state: true },
    deleteError: { state: true },
  };
  api!: Api;
  base = '';
  teamId = '';
  team: TeamDetail | null = null;
  /** The caller's role: the API gives it in the list of teams only. */
  yourRole: TeamRole = 'viewer';
  error: string | null = null;
  gone = false;
  renameMsg: string | null = null;
  renameError: string | null = null;
  deleteError: string | null = null;
  private readonly onGone = () => void (this.gone = true);
  private readonly onSeats = () => void this.load();

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('fl-team-gone', this.onGone);
    this.addEventListener('fl-team-seats', this.onSeats);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('fl-team-gone', this.onGone);
    this.removeEventListener('fl-team-seats', this.onSeats);
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('teamId') && this.teamId) {
      this.team = null;
      this.gone = false;
      void this.load();
    }
  }

  private fail(e: unknown): string {
    if (e instanceof ApiError && e.status === 404) this.gone = true;
    return messageOf(e);
  }

  private async load() {
    try {
      const [team, list] = await Promise.all([getTeam(this.api, this.teamId), listTeams(this.api)]);
      this.yourRole = list.teams.find((x) => x.id === team.id)?.your_role ?? 'viewer';
      this.team = team;
      this.error = null;
    } catch (e) {
      this.error = this.fail(e);
    }
  }

  private async onRename(e: Event) {
    e.preventDefault();
    const name = String(new FormData(e.target as HTMLFormElement).get('name') ?? '').trim();
    this.renameMsg = this.renameError = null;
    if (!name) return void (this.renameError = 'Give the team a name.');
    try {
      const t = await renameTeam(this.api, this.teamId, name);
      this.team = { ...this.team!, name: t.name, updated_at: t.updated_at };
      this.renameMsg = 'Renamed.';
    } catch (err) {
      this.renameError = this.fail(err);
    }
  }

  private async onDelete() {
    const team = this.team!;
    const ok = await this.renderRoot.querySelector<FlConfirm>('fl-confirm')!.ask({
      heading: `Delete ${team.name}?`,
      body: 'Its members lose access, its invitations and branding are removed. The team\'s forms are kept but no one can reach them. This cannot be undone.',
      confirmText: 'Delete team',
      danger: true,
    });
    if (!ok) return;
    this.deleteError = null;
    try {
      await deleteTeam(this.api, this.teamId);
      navigate(`${this.base}/teams`);
    } catch (err) {
      this.deleteError = this.fail(err);
    }
  }

  private renderSeats(t: TeamDetail) {
    const s = t.seats;
    if (!s) return nothing;
    const full = s.limit !== null && s.used >= s.limit;
    return html`<section class="card" aria-labelledby="seats-h">
      <h2 id="seats-h">Seats</h2>
      <p>${s.limit === null ? html`<strong>${s.used}</strong> seats used; the plan has no limit.` : html`<strong>${s.used}</strong> of <strong>${s.limit}</strong> seats used.`}</p>
      ${s.limit === null ? nothing : html`<div class="bar" role="progressbar" aria-label="Seats used" aria-valuemin="0" aria-valuemax=${s.limit} aria-valuenow=${Math.min(s.used, s.limit)}><span style="width:${Math.min(100, (s.used / Math.max(1, s.limit)) * 100)}%"></span></div>`}
      <p class="meta">Members and pending invitations count; seats come from the team owner's plan.${full ? ' All seats are taken: remove a member, cancel an invitation, or the owner upgrades the plan.' : ''}</p>
    </section>`;
  }

  override render() {
    if (this.gone) {
      return html`<div class="card gone" role="alert">
        <h1>This team is no longer available</h1>
        <p>It was deleted, or you are no longer one of its members.</p>
        <p><a class="btn" href="${this.base}/teams">Back to your teams</a></p>
      </div>`;
    }
    if (this.error) return html`<div class="card" role="alert"><p class="error-text on">${this.error}</p><button class="btn" @click=${() => void this.load()}>Retry</button></div>`;
    const t = this.team;
    if (!t) return html`<p class="muted" role="status">Loading…</p>`;
    const role = this.yourRole;
    return html`<div class="page">
      <div class="head">
        <h1>${t.name}</h1>
        <span class="badge">Your role: ${role}</span>
      </div>
      <p><a href="${this.base}/teams">← All teams</a></p>
      ${canManage(role)
        ? html`<section class="card" aria-labelledby="name-h">
            <h2 id="name-h">Team name</h2>
            <form class="rename" @submit=${this.onRename} novalidate>
              <label class="field">Name<input name="name" .value=${t.name} maxlength="200" autocomplete="off" required /></label>
              <button class="btn primary" type="submit">Rename</button>
            </form>
            ${errorLine(this.renameError)}
            <p class="ok-text ${this.renameMsg ? '' : 'idle'}" role="status">${this.renameMsg ?? ''}</p>
          </section>`
        : nothing}
      ${this.renderSeats(t)}
      <fl-team-people .api=${this.api} team-id=${t.id} your-role=${role}></fl-team-people>
      <fl-team-branding .api=${this.api} team-id=${t.id} your-role=${role}></fl-team-branding>
      ${canManage(role) ? html`<fl-team-audit .api=${this.api} team-id=${t.id}></fl-team-audit>` : nothing}
      ${role === 'owner'
        ? html`<section class="card" aria-labelledby="danger-h">
            <h2 id="danger-h">Delete this team</h2>
            <p class="meta">Only the owner can delete the team. Its forms are kept but become unreachable.</p>
            <div class="row"><button class="btn danger" type="button" @click=${() => void this.onDelete()}>Delete team…</button></div>
            ${errorLine(this.deleteError)}
          </section>`
        : nothing}
    </div>
    <fl-confirm></fl-confirm>`;
  }
}
customElements.get('fl-team') || customElements.define('fl-team', FlTeam);
