import { EntitySchema } from 'typeorm';
import { id, int } from './columns';

/* Credit balances. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface CreditBalanceRow {
  user_id: string;
  balance: number;
}

export const CreditBalanceEntity = new EntitySchema<CreditBalanceRow>({
  name: 'FormloomCreditBalance',
  tableName: 'credit_balances',
  columns: { user_id: id, balance: int },
});

