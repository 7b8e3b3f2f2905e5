import { type ApiKey, type ApiKeyRepository, FormloomError, type Page, type User, type UserRepository } from '@formloom/core';
import { lowerEmail } from '../tables/columns';
import { type ApiKeyRow, ApiKeyEntity, type UserRow, UserEntity, apiKeyFromRow, apiKeyToRow, userFromRow, userToRow } from '../tables/accounts';
import type { Scope } from '../scope';
import { deleteAccountRows } from './account-deletion';
import { type Dialect, isUniqueViolation } from '../sql/dialect';
import { insertIgnoring, tableOf, updateReturning } from '../sql/statements';

export const accountStatements = (d: Dialect) => {
  const users = tableOf(d, UserEntity);
  const keys = tableOf(d, ApiKeyEntity);
  return {
    insertUser: insertIgnoring(d, UserEntity),
    userById: `SELECT * FROM ${users} WHERE id = ${d.p(1)}`,
    userByEmail: `SELECT * FROM ${users} WHERE email_lower = ${d.p(1)}`,
    insertKey: insertIgnoring(d, ApiKeyEntity),
    keyById: `SELECT * FROM ${keys} WHERE id = ${d.p(1)}`,
    revokeKey: `UPDATE ${keys} SET revoked_at = ${d.p(1)} WHERE id = ${d.p(2)} AND revoked_at IS NULL`,
    usersPage: `SELECT * FROM ${users} ORDER BY created_at, id LIMIT ${d.p(1)} OFFSET ${d.p(2)}`,
    usersCount: `SELECT COUNT(*) AS n FROM ${users}`,
    keysByUser: `SELECT * FROM ${keys} WHERE user_id = ${d.p(1)} ORDER BY created_at, id`,
  };
};

const emailTaken = () => new FormloomError('CONFLICT', 'A user with this email already exists', { field: 'email' });

export class SqlUserRepository implements UserRepository {
  constructor(private readonly scope: Scope) {}

  deleteAccount(userId: string): Promise<{ deleted: boolean; generation_ids: string[] }> {
    return deleteAccountRows(this.scope, userId);
  }

  private get st() {
    return this.scope.statements(accountStatements);
  }

  async insert(user: User): Promise<void> {
    const { sql, values } = this.st.insertUser;
    const inserted = await this.scope.db.run(sql, values(userToRow(user)));
    if (inserted === 0) {
      const byId = await this.findById(user.id);
      throw byId ? new FormloomError('CONFLICT', `User ${user.id} already exists`) : emailTaken();
    }
  }

  async findById(id: string): Promise<User | null> {
    const [row] = await this.scope.db.all<UserRow>(this.st.userById, [id]);
    return row ? userFromRow(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const [row] = await this.scope.db.all<UserRow>(this.st.userByEmail, [lowerEmail(email)]);
    return row ? userFromRow(row) : null;
  }

  async list(page: { offset: number; limit: number }): Promise<Page<User>> {
    const [rows, [count]] = await Promise.all([
      this.scope.db.all<UserRow>(this.st.usersPage, [page.limit, page.offset]),
      this.scope.db.all<{ n: number | string }>(this.st.usersCount, []),
    ]);
    return { items: rows.map(userFromRow), total: Number(count?.n ?? 0) };
  }

  async update(id: string, patch: Partial<Omit<User, 'id' | 'created_at'>>): Promise<User | null> {
    const { id: _id, created_at: _created, ...set } = userToRow(patch as Partial<User>);
    const statement = updateReturning(this.scope.d, UserEntity, set, 'id', id);
    if (!statement) return this.findById(id);
    try {
      const [row] = await this.scope.db.all<UserRow>(statement.sql, statement.values);
      return row ? userFromRow(row) : null;
    } catch (err) {
      if (isUniqueViolation(err)) throw emailTaken();
      throw err;
    }
  }
}

export class SqlApiKeyRepository implements ApiKeyRepository {
  constructor(private readonly scope: Scope) {}

  async listByUser(userId: string): Promise<ApiKey[]> {
    const rows = await this.scope.db.all<ApiKeyRow>(this.st.keysByUser, [userId]);
    return rows.map(apiKeyFromRow);
  }

  private get st() {
    return this.scope.statements(accountStatements);
  }

  async insert(key: ApiKey): Promise<void> {
    const { sql, values } = this.st.insertKey;
    if ((await this.scope.db.run(sql, values(apiKeyToRow(key)))) === 0) {
      throw new FormloomError('CONFLICT', `API key ${key.id} already exists`);
    }
  }

  async findById(id: string): Promise<ApiKey | null> {
    const [row] = await this.scope.db.all<ApiKeyRow>(this.st.keyById, [id]);
    return row ? apiKeyFromRow(row) : null;
  }

  async revoke(id: string, at: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.revokeKey, [at, id])) > 0;
  }
}
