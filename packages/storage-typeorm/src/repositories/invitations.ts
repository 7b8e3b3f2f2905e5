import { FormloomError, type Invitation, type InvitationRepository } from '@formloom/core';
import { lowerEmail } from '../tables/columns';
import { type InvitationRow, InvitationEntity, invitationFromRow, invitationToRow } from '../tables/invitations';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';

export const invitationStatements = (d: Dialect) => {
  const invitations = tableOf(d, InvitationEntity);
  /** Pending and unexpired at `now` (ISO-8601 strings compare as text): a range on IDX_team_invitations_team_status_expires. */
  const pending = (team: number, now: number) =>
    `team_id = ${d.p(team)} AND status = 'pending' AND expires_at > ${d.p(now)}`;
  return {
    insert: insertIgnoring(d, InvitationEntity),
    byId: `SELECT * FROM ${invitations} WHERE team_id = ${d.p(1)} AND id = ${d.p(2)}`,
    byTokenHash: `SELECT * FROM ${invitations} WHERE token_hash = ${d.p(1)}`,
    listPending: `SELECT * FROM ${invitations} WHERE ${pending(1, 2)} ORDER BY created_at DESC, id DESC`,
    countPending: `SELECT COUNT(*) AS n FROM ${invitations} WHERE ${pending(1, 2)}`,
    pendingByEmail:
      `SELECT * FROM ${invitations} WHERE ${pending(1, 2)} AND email = ${d.p(3)} ` +
      `ORDER BY created_at DESC, id DESC LIMIT 1`,
    anyPendingForEmail:
      `SELECT id FROM ${invitations} WHERE email = ${d.p(1)} AND status = 'pending' AND expires_at > ${d.p(2)} LIMIT 1`,
    /** The check (still pending) and the write are one statement: of concurrent settles exactly one changes the row. */
    settle:
      `UPDATE ${invitations} SET status = ${d.p(2)}, updated_at = ${d.p(3)} WHERE id = ${d.p(1)} AND status = 'pending'`,
    cancelForEmail:
      `UPDATE ${invitations} SET status = 'cancelled', updated_at = ${d.p(3)} ` +
      `WHERE team_id = ${d.p(1)} AND email = ${d.p(2)} AND status = 'pending'`,
  };
};

export class SqlInvitationRepository implements InvitationRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(invitationStatements);
  }

  /** ON CONFLICT DO NOTHING: a taken id or token hash changes no row and is a CONFLICT. */
  async insert(invitation: Invitation): Promise<void> {
    const { sql, values } = this.st.insert;
    if ((await this.scope.db.run(sql, values(invitationToRow(invitation)))) === 0) {
      throw new FormloomError('CONFLICT', `Invitation ${invitation.id} or its token already exists`);
    }
  }

  async findById(teamId: string, id: string): Promise<Invitation | null> {
    const [row] = await this.scope.db.all<InvitationRow>(this.st.byId, [teamId, id]);
    return row ? invitationFromRow(row) : null;
  }

  async findByTokenHash(tokenHash: string): Promise<Invitation | null> {
    const [row] = await this.scope.db.all<InvitationRow>(this.st.byTokenHash, [tokenHash]);
    return row ? invitationFromRow(row) : null;
  }

  async hasPendingForEmail(email: string, now: string): Promise<boolean> {
    return (await this.scope.db.all(this.st.anyPendingForEmail, [lowerEmail(email), now])).length > 0;
  }

  async listPending(teamId: string, now: string): Promise<Invitation[]> {
    const rows = await this.scope.db.all<InvitationRow>(this.st.listPending, [teamId, now]);
    return rows.map(invitationFromRow);
  }

  async countPending(teamId: string, now: string): Promise<number> {
    const [row] = await this.scope.db.all<{ n: number | string }>(this.st.countPending, [teamId, now]);
    return Number(row.n);
  }

  /** The newest, should there be several. */
  async findPendingByEmail(teamId: string, email: string, now: string): Promise<Invitation | null> {
    const params = [teamId, now, lowerEmail(email)];
    const [row] = await this.scope.db.all<InvitationRow>(this.st.pendingByEmail, params);
    return row ? invitationFromRow(row) : null;
  }

  async settle(id: string, status: 'accepted' | 'cancelled', at: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.settle, [id, status, at])) > 0;
  }

  /** Expired pending invitations too: whatever is still pending for the address. */
  async cancelForEmail(teamId: string, email: string, at: string): Promise<number> {
    return this.scope.db.run(this.st.cancelForEmail, [teamId, lowerEmail(email), at]);
  }
}
