import { randomUUID } from 'node:crypto';
import type { CreditEntry, CreditRepository, GenerationSpend, SpendOutcome } from '@formloom/core';
import { CreditBalanceEntity, CreditEntryEntity, type CreditEntryRow, creditEntryFromRow } from '../tables/credits';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

export const creditStatements = (d: Dialect) => {
  const credits = tableOf(d, CreditBalanceEntity);
  const entries = tableOf(d, CreditEntryEntity);
  const cols = '(id, user_id, kind, amount, generation_id, key_id, created_at)';
  return {
    balance: `SELECT balance FROM ${credits} WHERE user_id = ${d.p(1)}`,
    /** One upsert: concurrent first purchases cannot both insert, nor lose an increment. */
    add:
      `INSERT INTO ${credits} AS cb (user_id, balance) VALUES (${d.p(1)}, ${d.p(2)}) ` +
      `ON CONFLICT (user_id) DO UPDATE SET balance = cb.balance + excluded.balance RETURNING balance`,
    /** One conditional update: the database checks and takes in the same step (and locks the row). */
    spend:
      `UPDATE ${credits} SET balance = balance - ${d.p(1)} ` +
      `WHERE user_id = ${d.p(2)} AND balance >= ${d.p(1)} RETURNING balance`,
    entry: `INSERT INTO ${entries} ${cols} VALUES (${[1, 2, 3, 4, 5, 6, 7].map(d.p).join(', ')})`,
    /** The unique (generation_id, kind) index makes a second spend of one generation a no-op. */
    generationEntry:
      `INSERT INTO ${entries} ${cols} VALUES (${[1, 2, 3, 4, 5, 6, 7].map(d.p).join(', ')}) ` +
      `ON CONFLICT (generation_id, kind) DO NOTHING`,
    /** `p(4)`: the part to give back, or the whole spend when it is larger or null. */
    creditBack:
      `INSERT INTO ${entries} ${cols} SELECT ${d.p(1)}, user_id, 'credit_back', ` +
      `CASE WHEN CAST(${d.p(4)} AS INTEGER) < -amount THEN CAST(${d.p(4)} AS INTEGER) ELSE -amount END, generation_id, key_id, ${d.p(2)} ` +
      `FROM ${entries} WHERE generation_id = ${d.p(3)} AND kind = 'spend' ` +
      `ON CONFLICT (generation_id, kind) DO NOTHING RETURNING user_id, amount`,
    keySpent:
      `SELECT COALESCE(SUM(amount), 0) AS total FROM ${entries} ` +
      `WHERE key_id = ${d.p(1)} AND created_at >= ${d.p(2)} AND kind IN ('spend', 'credit_back')`,
    entries: `SELECT * FROM ${entries} WHERE user_id = ${d.p(1)} ORDER BY created_at, id`,
    entryPage: `SELECT * FROM ${entries} WHERE user_id = ${d.p(1)} ORDER BY created_at DESC, id DESC LIMIT ${d.p(2)} OFFSET ${d.p(3)}`,
    entryCount: `SELECT COUNT(*) AS n FROM ${entries} WHERE user_id = ${d.p(1)}`,
  };
};

/** Thrown inside `atomic` to roll a refused spend back; never leaves this file. */
class Refused extends Error {
  constructor(readonly reason: 'insufficient' | 'key_limit') {
    super(reason);
  }
}

/** The ledger plus its cached sum: every change writes an entry and moves the balance in one transaction. */
export class SqlCreditRepository implements CreditRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(creditStatements);
  }

  async balance(userId: string): Promise<number> {
    const [row] = await this.scope.db.all<{ balance: number }>(this.st.balance, [userId]);
    return row ? Number(row.balance) : 0;
  }

  async add(userId: string, amount: number, entry: { id?: string; created_at?: string } = {}): Promise<number> {
    return this.scope.atomic(async (db) => {
      const at = entry.created_at ?? new Date().toISOString();
      await db.run(this.st.entry, [entry.id ?? `cre_${randomUUID()}`, userId, 'purchase', amount, null, null, at]);
      const [row] = await db.all<{ balance: number }>(this.st.add, [userId, amount]);
      return Number(row!.balance);
    });
  }

  async spend(userId: string, amount: number): Promise<number | null> {
    if (amount <= 0) return this.balance(userId);
    try {
      return await this.scope.atomic(async (db) => {
        const [row] = await db.all<{ balance: number }>(this.st.spend, [amount, userId]);
        if (!row) throw new Refused('insufficient');
        await db.run(this.st.entry, [`cre_${randomUUID()}`, userId, 'spend', -amount, null, null, new Date().toISOString()]);
        return Number(row.balance);
      });
    } catch (e) {
      if (e instanceof Refused) return null;
      throw e;
    }
  }

  async spendFor(s: GenerationSpend): Promise<SpendOutcome> {
    try {
      return await this.scope.atomic(async (db): Promise<SpendOutcome> => {
        // The entry first: a concurrent spend of the same generation waits on its unique index, then inserts nothing.
        const inserted = await db.run(this.st.generationEntry, [s.id, s.user_id, 'spend', -s.amount, s.generation_id, s.key_id, s.created_at]);
        if (inserted === 0) return { ok: false, reason: 'duplicate', balance: await this.balanceIn(db, s.user_id) };
        // The conditional update locks the user's balance row until commit, so the key-limit sum below
        // sees every earlier spend of this user committed.
        const [row] = await db.all<{ balance: number }>(this.st.spend, [s.amount, s.user_id]);
        if (!row) throw new Refused('insufficient');
        if (s.key_limit && s.key_id) {
          const [sum] = await db.all<{ total: number }>(this.st.keySpent, [s.key_id, s.key_limit.since]);
          if (-Number(sum!.total) > s.key_limit.limit) throw new Refused('key_limit');
        }
        return { ok: true, balance: Number(row.balance) };
      });
    } catch (e) {
      if (e instanceof Refused) return { ok: false, reason: e.reason, balance: await this.balance(s.user_id) };
      throw e;
    }
  }

  async creditBack(generationId: string, entry: { id: string; created_at: string; amount?: number }): Promise<number | null> {
    if (entry.amount !== undefined && !(Number.isInteger(entry.amount) && entry.amount > 0)) throw new RangeError(`credit-back amount must be a positive integer, got ${entry.amount}`);
    return this.scope.atomic(async (db) => {
      const [row] = await db.all<{ user_id: string; amount: number }>(this.st.creditBack, [entry.id, entry.created_at, generationId, entry.amount ?? null]);
      if (!row) return null;
      const [bal] = await db.all<{ balance: number }>(this.st.add, [row.user_id, Number(row.amount)]);
      return Number(bal!.balance);
    });
  }

  async keySpent(keyId: string, since: string): Promise<number> {
    const [row] = await this.scope.db.all<{ total: number }>(this.st.keySpent, [keyId, since]);
    return 0 - Number(row?.total ?? 0) || 0;
  }

  async entries(userId: string): Promise<CreditEntry[]> {
    return (await this.scope.db.all<CreditEntryRow>(this.st.entries, [userId])).map(creditEntryFromRow);
  }

  async entryPage(userId: string, page: { limit: number; offset: number }): Promise<{ items: CreditEntry[]; total: number }> {
    const rows = await this.scope.db.all<CreditEntryRow>(this.st.entryPage, [userId, page.limit, page.offset]);
    const [count] = await this.scope.db.all<{ n: number | string }>(this.st.entryCount, [userId]);
    return { items: rows.map(creditEntryFromRow), total: Number(count?.n ?? 0) };
  }

  private async balanceIn(db: Scope['db'], userId: string): Promise<number> {
    const [row] = await db.all<{ balance: number }>(this.st.balance, [userId]);
    return row ? Number(row.balance) : 0;
  }
}
