import {
  type CredentialRepository,
  FormloomError,
  type OneTimeToken,
  type OneTimeTokenPurpose,
  type OneTimeTokenRepository,
  type PasskeyRecord,
  type PasskeyRepository,
  type PasswordRecord,
  type SignInSession,
  type SignInSessionRepository,
} from '@formloom/core';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { insertIgnoring, tableOf } from '../sql/statements';
import {
  InstanceClaimEntity,
  type OneTimeTokenRow,
  OneTimeTokenEntity,
  type PasskeyRow,
  PasskeyEntity,
  passkeyFromRow,
  passkeyToRow,
  PasswordEntity,
  type PasswordRow,
  sessionFromRow,
  type SignInSessionRow,
  SignInSessionEntity,
  tokenFromRow,
} from '../tables/sign-in';

export const signInStatements = (d: Dialect) => {
  const passwords = tableOf(d, PasswordEntity);
  const claims = tableOf(d, InstanceClaimEntity);
  const sessions = tableOf(d, SignInSessionEntity);
  const tokens = tableOf(d, OneTimeTokenEntity);
  const passkeys = tableOf(d, PasskeyEntity);
  return {
    passwordOf: `SELECT * FROM ${passwords} WHERE user_id = ${d.p(1)}`,
    setPassword:
      `INSERT INTO ${passwords} (user_id, password_hash, updated_at) VALUES (${d.p(1)}, ${d.p(2)}, ${d.p(3)}) ` +
      `ON CONFLICT (user_id) DO UPDATE SET password_hash = excluded.password_hash, updated_at = excluded.updated_at`,
    deletePassword: `DELETE FROM ${passwords} WHERE user_id = ${d.p(1)}`,
    /** The primary key decides: of concurrent claims one row is inserted, the others change nothing. */
    claim: insertIgnoring(d, InstanceClaimEntity),
    claimOf: `SELECT user_id FROM ${claims} WHERE name = ${d.p(1)}`,
    grantClaim:
      `INSERT INTO ${claims} (name, user_id, claimed_at) VALUES (${d.p(1)}, ${d.p(2)}, ${d.p(3)}) ` +
      `ON CONFLICT (name) DO UPDATE SET user_id = excluded.user_id, claimed_at = excluded.claimed_at`,
    releaseClaim: `DELETE FROM ${claims} WHERE name = ${d.p(1)} AND user_id = ${d.p(2)}`,
    insertSession: insertIgnoring(d, SignInSessionEntity),
    sessionByToken: `SELECT * FROM ${sessions} WHERE token_hash = ${d.p(1)}`,
    touchSession: `UPDATE ${sessions} SET last_seen_at = ${d.p(2)}, expires_at = ${d.p(3)} WHERE id = ${d.p(1)}`,
    deleteSession: `DELETE FROM ${sessions} WHERE user_id = ${d.p(1)} AND id = ${d.p(2)}`,
    deleteUserSessions: `DELETE FROM ${sessions} WHERE user_id = ${d.p(1)} AND id <> ${d.p(2)}`,
    userSessions: `SELECT * FROM ${sessions} WHERE user_id = ${d.p(1)} AND expires_at > ${d.p(2)} ORDER BY created_at DESC, id DESC`,
    pruneSessions: `DELETE FROM ${sessions} WHERE expires_at <= ${d.p(1)}`,
    insertToken: insertIgnoring(d, OneTimeTokenEntity),
    /** The check (unused, unexpired) and the write are one statement: of concurrent consumers exactly one changes the row. */
    consumeToken:
      `UPDATE ${tokens} SET used_at = ${d.p(3)} ` +
      `WHERE token_hash = ${d.p(1)} AND purpose = ${d.p(2)} AND used_at IS NULL AND expires_at > ${d.p(3)} RETURNING *`,
    revokeTokens: `UPDATE ${tokens} SET used_at = ${d.p(3)} WHERE user_id = ${d.p(1)} AND purpose = ${d.p(2)} AND used_at IS NULL`,
    pruneTokens: `DELETE FROM ${tokens} WHERE expires_at <= ${d.p(1)}`,
    insertPasskey: insertIgnoring(d, PasskeyEntity),
    passkeyByCredential: `SELECT * FROM ${passkeys} WHERE credential_id = ${d.p(1)}`,
    userPasskeys: `SELECT * FROM ${passkeys} WHERE user_id = ${d.p(1)} ORDER BY created_at, id`,
    usePasskey:
      `UPDATE ${passkeys} SET counter = ${d.p(2)}, last_used_at = ${d.p(3)} ` +
      `WHERE id = ${d.p(1)} AND (counter < ${d.p(2)} OR (counter = 0 AND ${d.p(2)} = 0))`,
    deletePasskey: `DELETE FROM ${passkeys} WHERE user_id = ${d.p(1)} AND id = ${d.p(2)}`,
    deleteUserPasskeys: `DELETE FROM ${passkeys} WHERE user_id = ${d.p(1)}`,
  };
};

const ADMIN = 'admin';

export class SqlCredentialRepository implements CredentialRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(signInStatements);
  }

  async findPassword(userId: string): Promise<PasswordRecord | null> {
    const [row] = await this.scope.db.all<PasswordRow>(this.st.passwordOf, [userId]);
    return row ? { user_id: row.user_id, password_hash: row.password_hash, updated_at: row.updated_at } : null;
  }

  async setPassword(record: PasswordRecord): Promise<void> {
    await this.scope.db.run(this.st.setPassword, [record.user_id, record.password_hash, record.updated_at]);
  }

  async deletePassword(userId: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.deletePassword, [userId])) > 0;
  }

  async claimAdmin(userId: string, at: string): Promise<boolean> {
    const { sql, values } = this.st.claim;
    return (await this.scope.db.run(sql, values({ name: ADMIN, user_id: userId, claimed_at: at }))) > 0;
  }

  async adminId(): Promise<string | null> {
    const [row] = await this.scope.db.all<{ user_id: string }>(this.st.claimOf, [ADMIN]);
    return row?.user_id ?? null;
  }

  async grantAdmin(userId: string, at: string): Promise<void> {
    await this.scope.db.run(this.st.grantClaim, [ADMIN, userId, at]);
  }

  async revokeAdmin(userId: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.releaseClaim, [ADMIN, userId])) > 0;
  }
}

export class SqlSignInSessionRepository implements SignInSessionRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(signInStatements);
  }

  async insert(session: SignInSession): Promise<void> {
    const { sql, values } = this.st.insertSession;
    if ((await this.scope.db.run(sql, values(session))) === 0) throw new FormloomError('CONFLICT', `Session ${session.id} or its token already exists`);
  }

  async findByTokenHash(tokenHash: string): Promise<SignInSession | null> {
    const [row] = await this.scope.db.all<SignInSessionRow>(this.st.sessionByToken, [tokenHash]);
    return row ? sessionFromRow(row) : null;
  }

  async touch(id: string, lastSeenAt: string, expiresAt: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.touchSession, [id, lastSeenAt, expiresAt])) > 0;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.deleteSession, [userId, id])) > 0;
  }

  async deleteForUser(userId: string, exceptId: string | null): Promise<number> {
    return this.scope.db.run(this.st.deleteUserSessions, [userId, exceptId ?? '']);
  }

  async listByUser(userId: string, now: string): Promise<SignInSession[]> {
    return (await this.scope.db.all<SignInSessionRow>(this.st.userSessions, [userId, now])).map(sessionFromRow);
  }

  async prune(before: string): Promise<number> {
    return this.scope.db.run(this.st.pruneSessions, [before]);
  }
}

export class SqlOneTimeTokenRepository implements OneTimeTokenRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(signInStatements);
  }

  async insert(token: OneTimeToken): Promise<void> {
    const { sql, values } = this.st.insertToken;
    if ((await this.scope.db.run(sql, values(token))) === 0) throw new FormloomError('CONFLICT', `Token ${token.id} or its hash already exists`);
  }

  async consume(tokenHash: string, purpose: OneTimeTokenPurpose, now: string): Promise<OneTimeToken | null> {
    const [row] = await this.scope.db.all<OneTimeTokenRow>(this.st.consumeToken, [tokenHash, purpose, now]);
    return row ? tokenFromRow(row) : null;
  }

  async revokeForUser(userId: string, purpose: OneTimeTokenPurpose, at: string): Promise<number> {
    return this.scope.db.run(this.st.revokeTokens, [userId, purpose, at]);
  }

  async prune(before: string): Promise<number> {
    return this.scope.db.run(this.st.pruneTokens, [before]);
  }
}

export class SqlPasskeyRepository implements PasskeyRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(signInStatements);
  }

  async insert(passkey: PasskeyRecord): Promise<void> {
    const { sql, values } = this.st.insertPasskey;
    if ((await this.scope.db.run(sql, values(passkeyToRow(passkey)))) === 0) {
      throw new FormloomError('CONFLICT', 'This passkey is registered already');
    }
  }

  async findByCredentialId(credentialId: string): Promise<PasskeyRecord | null> {
    const [row] = await this.scope.db.all<PasskeyRow>(this.st.passkeyByCredential, [credentialId]);
    return row ? passkeyFromRow(row) : null;
  }

  async listByUser(userId: string): Promise<PasskeyRecord[]> {
    return (await this.scope.db.all<PasskeyRow>(this.st.userPasskeys, [userId])).map(passkeyFromRow);
  }

  async recordUse(id: string, counter: number, at: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.usePasskey, [id, counter, at])) > 0;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.deletePasskey, [userId, id])) > 0;
  }

  async deleteForUser(userId: string): Promise<number> {
    return this.scope.db.run(this.st.deleteUserPasskeys, [userId]);
  }
}
