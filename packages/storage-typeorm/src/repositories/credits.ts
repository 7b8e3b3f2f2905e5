import type { CreditRepository } from '@formloom/core';
import { CreditBalanceEntity } from '../tables/credits';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

export const creditStatements = (d: Dialect) => {
  const credits = tableOf(d, CreditBalanceEntity);
  return {
    balance: `SELECT balance FROM ${credits} WHERE user_id = ${d.p(1)}`,
    /** One upsert: concurrent first purchases cannot both insert, nor lose an increment. */
    add:
      `INSERT INTO ${credits} AS cb (user_id, balance) VALUES (${d.p(1)}, ${d.p(2)}) ` +
      `ON CONFLICT (user_id) DO UPDATE SET balance = cb.balance + excluded.balance RETURNING balance`,
    /** One conditional update: the database checks and takes in the same step. */
    spend:
      `UPDATE ${credits} SET balance = balance - ${d.p(1)} ` +
      `WHERE user_id = ${d.p(2)} AND balance >= ${d.p(1)} RETURNING balance`,
  };
};

export class SqlCreditRepository implements CreditRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(creditStatements);
  }

  async balance(userId: string): Promise<number> {
    const [row] = await this.scope.db.all<{ balance: number }>(this.st.balance, [userId]);
    return row ? Number(row.balance) : 0;
  }

  async add(userId: string, amount: number): Promise<number> {
    const [row] = await this.scope.db.all<{ balance: number }>(this.st.add, [userId, amount]);
    return Number(row.balance);
  }

  async spend(userId: string, amount: number): Promise<number | null> {
    if (amount <= 0) return this.balance(userId);
    const [row] = await this.scope.db.all<{ balance: number }>(this.st.spend, [amount, userId]);
    return row ? Number(row.balance) : null;
  }
}
