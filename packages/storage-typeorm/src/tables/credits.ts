import type { CreditEntry } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, int, optStr, str } from './columns';

/* Credits: the ledger and each user's cached balance (its sum). Tables as TypeORM entities, their row
 * types, and the record <-> row mappers (see columns.ts). */

export interface CreditBalanceRow {
  user_id: string;
  balance: number;
}

export const CreditBalanceEntity = new EntitySchema<CreditBalanceRow>({
  name: 'FormloomCreditBalance',
  tableName: 'credit_balances',
  columns: { user_id: id, balance: int },
});

export type CreditEntryRow = CreditEntry;

export const CreditEntryEntity = new EntitySchema<CreditEntryRow>({
  name: 'FormloomCreditEntry',
  tableName: 'credit_entries',
  columns: { id, user_id: str, kind: str, amount: int, generation_id: optStr, key_id: optStr, created_at: str },
  indices: [
    { name: 'UQ_credit_entries_generation_kind', columns: ['generation_id', 'kind'], unique: true },
    { name: 'IDX_credit_entries_user', columns: ['user_id', 'created_at'] },
    { name: 'IDX_credit_entries_key', columns: ['key_id', 'created_at'] },
  ],
});

export const creditEntryFromRow = (r: CreditEntryRow): CreditEntry => ({ ...r, amount: Number(r.amount) });
