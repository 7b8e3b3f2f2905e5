import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { createTeam, listTeams, type TeamListItem } from '../../data/teams';
import { errorLine, messageOf } from '../auth/auth-card';
import { sectionStyles } from '../account/account-styles';
import { navigate, teamPath } from '../shell/routes';

/** `<fl-teams>` at `/teams` (docs/workspace.md, "Teams"): the teams you belong to, and a new one. */
export class FlTeams extends LitElement {
  static override styles = [
    tokens,
    controls,
    sectionStyles,
    css`
      :host { max-width: 48rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
      .page { display: grid; gap: 1rem; }
      form.create { grid-template-columns: 1fr auto; align-items: end; }
      @media (max-width: 480px) { form.create { grid-template-columns: 1fr; } }
      ul.rows a { font-weight: 600; color: var(--_primary); overflow-wrap: anywhere; }
      @media (prefers-color-scheme: light) { ul.rows a { color: color-mix(in srgb, var(--_primary) 80%, black); } }
    `,
  ];
  static override properties = { api: { attribute: false }, base: {}, teams: { state: true }, error: { state: true }, createError: { state: true }, busy: { state: true } };
  api!: Api;
  base = '';
  teams: TeamListItem[] | null = null;
  error: string | null = null;
  createError: string | null = null;
  busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.teams = (await listTeams(this.api)).teams;
      this.error = null;
    } catch (e) {
      this.error = messageOf(e);
    }
  }

  private async onCreate(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const name = String(new FormData(form).get('name') ?? '').trim();
    this.createError = null;
    if (!name) return void (this.createError = 'Give the team a name.');
    this.busy = true;
    try {
      const team = await createTeam(this.api, name);
      navigate(teamPath(this.base, team.id));
    } catch (err) {
      this.createError = messageOf(err);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    return html`<div class="page">
      <h1>Teams</h1>
      <section class="card" aria-labelledby="new-h">
        <h2 id="new-h">New team</h2>
        <form class="create" @submit=${this.onCreate} novalidate>
          <label class="field">Team name<input name="name" maxlength="200" autocomplete="off" required /></label>
          <button class="btn primary" type="submit" ?disabled=${this.busy}>Create team</button>
        </form>
        ${errorLine(this.createError)}
        <p class="meta">You become its owner. Members and pending invitations use seats of your plan.</p>
      </section>
      <section class="card" aria-labelledby="yours-h">
        <h2 id="yours-h">Your teams</h2>
        ${this.error
          ? html`<div role="alert"><p class="error-text on">${this.error}</p><button class="btn" @click=${() => void this.load()}>Retry</button></div>`
          : this.teams === null
            ? html`<p class="muted" role="status">Loading…</p>`
            : this.teams.length === 0
              ? html`<p class="muted">You are not in a team yet. Create one above, or accept an invitation from its email.</p>`
              : html`<ul class="rows">
                  ${this.teams.map(
                    (t) => html`<li>
                      <div class="what"><a href=${teamPath(this.base, t.id)}>${t.name}</a><span class="meta">${t.member_count} ${t.member_count === 1 ? 'member' : 'members'}</span></div>
                      <span class="badge">${t.your_role}</span>
                    </li>`,
                  )}
                </ul>`}
      </section>
    </div>${nothing}`;
  }
}
customElements.get('fl-teams') || customElements.define('fl-teams', FlTeams);
