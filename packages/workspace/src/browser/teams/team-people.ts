import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { cancelInvitation, canManage, changeRole, invite, listInvitations, listMembers, removeMember, type Invitation, type InviteRole, type TeamMember, type TeamRole } from '../../data/teams';
import { errorLine } from '../auth/auth-card';
import { sectionStyles } from '../account/account-styles';
import type { FlConfirm } from '../controls/confirm-dialog';
import '../controls/confirm-dialog';
import { expiresIn, failure, seatsChanged, when } from './team-events';

const ROLES: InviteRole[] = ['admin', 'editor', 'viewer'];

/** `<fl-team-people team-id role>`: members with their roles, and the pending invitations (docs/teams.md). */
export class FlTeamPeople extends LitElement {
  static override styles = [
    tokens,
    controls,
    sectionStyles,
    css`
      .page { display: grid; gap: 1rem; }
      .idle { display: none; }
      form.invite { grid-template-columns: 2fr 1fr auto; align-items: end; }
      @media (max-width: 600px) { form.invite { grid-template-columns: 1fr; } }
      .actions { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
      .actions select { width: auto; min-width: 7rem; }
      .link { display: grid; gap: 0.3rem; }
    `,
  ];
  static override properties = {
    api: { attribute: false },
    teamId: { attribute: 'team-id' },
    yourRole: { attribute: 'your-role' },
    members: { state: true },
    invitations: { state: true },
    error: { state: true },
    memberMsg: { state: true },
    memberError: { state: true },
    inviteError: { state: true },
    inviteMsg: { state: true },
    lastLink: { state: true },
  };
  api!: Api;
  teamId = '';
  yourRole: TeamRole = 'viewer';
  members: TeamMember[] | null = null;
  invitations: Invitation[] | null = null;
  error: string | null = null;
  memberMsg: string | null = null;
  memberError: string | null = null;
  inviteError: string | null = null;
  inviteMsg: string | null = null;
  lastLink: string | null = null;

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('teamId') && this.teamId) void this.load();
  }

  private async load() {
    try {
      const [m, i] = await Promise.all([listMembers(this.api, this.teamId), listInvitations(this.api, this.teamId)]);
      this.members = m.members;
      this.invitations = i.invitations;
      this.error = null;
    } catch (e) {
      this.error = failure(this, e);
    }
  }

  private confirm() {
    return this.renderRoot.querySelector<FlConfirm>('fl-confirm')!;
  }

  private async onRole(m: TeamMember, e: Event) {
    const select = e.target as HTMLSelectElement;
    const role = select.value as InviteRole;
    this.memberMsg = this.memberError = null;
    try {
      await changeRole(this.api, this.teamId, m.id, role);
      this.members = this.members!.map((x) => (x.id === m.id ? { ...x, role } : x));
      this.memberMsg = `${m.email} is now ${role === 'admin' ? 'an' : 'a'} ${role}.`;
    } catch (err) {
      select.value = m.role;
      this.memberError = failure(this, err);
    }
  }

  private async onRemove(m: TeamMember) {
    const ok = await this.confirm().ask({ heading: `Remove ${m.email}?`, body: 'They lose access to the team and its forms at once.', confirmText: 'Remove', danger: true });
    if (!ok) return;
    this.memberMsg = this.memberError = null;
    try {
      await removeMember(this.api, this.teamId, m.id);
      this.members = this.members!.filter((x) => x.id !== m.id);
      this.memberMsg = `${m.email} was removed.`;
      seatsChanged(this);
    } catch (err) {
      this.memberError = failure(this, err);
    }
  }

  private async onInvite(e: Event) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    const email = String(data.get('email') ?? '').trim();
    const role = String(data.get('role') ?? 'editor') as InviteRole;
    this.inviteError = this.inviteMsg = this.lastLink = null;
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return void (this.inviteError = 'Enter the email address to invite.');
    try {
      const inv = await invite(this.api, this.teamId, email, role);
      form.reset();
      this.invitations = [inv, ...(this.invitations ?? [])];
      this.inviteMsg = `Invitation sent to ${email}.`;
      this.lastLink = inv.invite_url ? new URL(inv.invite_url, location.origin).href : null;
      seatsChanged(this);
    } catch (err) {
      this.inviteError = failure(this, err);
    }
  }

  private async onCancel(inv: Invitation) {
    const ok = await this.confirm().ask({ heading: `Cancel the invitation to ${inv.email}?`, body: 'Its link stops working and its seat is freed.', confirmText: 'Cancel invitation', danger: true });
    if (!ok) return;
    this.inviteError = this.inviteMsg = null;
    try {
      await cancelInvitation(this.api, this.teamId, inv.id);
      this.invitations = this.invitations!.filter((x) => x.id !== inv.id);
      this.inviteMsg = `The invitation to ${inv.email} was cancelled.`;
      seatsChanged(this);
    } catch (err) {
      this.inviteError = failure(this, err);
    }
  }

  private renderMember(m: TeamMember, manage: boolean) {
    const name = [m.first_name, m.last_name].filter(Boolean).join(' ');
    // The owner's role is fixed, and an admin cannot change another admin into an owner: the API refuses both.
    const editable = manage && m.role !== 'owner';
    return html`<li>
      <div class="what"><strong>${name || m.email}</strong><span class="meta">${name ? html`${m.email} · ` : nothing}joined ${when(m.joined_at)}</span></div>
      ${editable
        ? html`<div class="actions">
            <label class="sr-only" for="role-${m.id}">Role of ${m.email}</label>
            <select id="role-${m.id}" @change=${(e: Event) => void this.onRole(m, e)}>
              ${ROLES.map((r) => html`<option value=${r} ?selected=${r === m.role}>${r}</option>`)}
            </select>
            <button class="btn small danger" type="button" aria-label="Remove ${m.email}" @click=${() => void this.onRemove(m)}>Remove</button>
          </div>`
        : html`<span class="badge">${m.role}</span>`}
    </li>`;
  }

  override render() {
    const manage = canManage(this.yourRole);
    if (this.error) return html`<section class="card" role="alert"><p class="error-text on">${this.error}</p><button class="btn" @click=${() => void this.load()}>Retry</button></section>`;
    return html`<div class="page">
      <section class="card" aria-labelledby="members-h">
        <h2 id="members-h">Members</h2>
        ${this.members === null
          ? html`<p class="muted" role="status">Loading…</p>`
          : html`<ul class="rows">${this.members.map((m) => this.renderMember(m, manage))}</ul>`}
        ${errorLine(this.memberError)}
        <p class="ok-text ${this.memberMsg ? '' : 'idle'}" role="status">${this.memberMsg ?? ''}</p>
        ${manage ? nothing : html`<p class="meta">Only the owner and admins change roles and invite people.</p>`}
      </section>
      <section class="card" aria-labelledby="inv-h">
        <h2 id="inv-h">Invitations</h2>
        ${manage
          ? html`<form class="invite" @submit=${this.onInvite} novalidate>
              <label class="field">Email address<input name="email" type="email" autocomplete="off" required /></label>
              <label class="field">Role<select name="role">${ROLES.map((r) => html`<option value=${r} ?selected=${r === 'editor'}>${r}</option>`)}</select></label>
              <button class="btn primary" type="submit">Send invitation</button>
            </form>`
          : nothing}
        ${errorLine(this.inviteError)}
        <p class="ok-text ${this.inviteMsg ? '' : 'idle'}" role="status">${this.inviteMsg ?? ''}</p>
        ${this.lastLink ? html`<div class="link"><span class="meta">The invitation link (also in the email):</span><span class="secret">${this.lastLink}</span></div>` : nothing}
        ${this.invitations === null
          ? html`<p class="muted" role="status">Loading…</p>`
          : this.invitations.length === 0
            ? html`<p class="muted">No pending invitations.</p>`
            : html`<ul class="rows" aria-label="Pending invitations">
                ${this.invitations.map(
                  (inv) => html`<li>
                    <div class="what"><strong>${inv.email}</strong><span class="meta">${inv.role} · pending · sent ${when(inv.created_at)} · expires ${expiresIn(inv.expires_at)} (${when(inv.expires_at)})</span></div>
                    ${manage ? html`<button class="btn small danger" type="button" aria-label="Cancel the invitation to ${inv.email}" @click=${() => void this.onCancel(inv)}>Cancel</button>` : nothing}
                  </li>`,
                )}
              </ul>`}
      </section>
    </div>
    <fl-confirm></fl-confirm>`;
  }
}
customElements.get('fl-team-people') || customElements.define('fl-team-people', FlTeamPeople);
