import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import type { FormRow } from './forms';

/* The per-form, per-day analytics rollup. Tables as TypeORM entities and their row types (see columns.ts). */

export interface ResponseDayRow {
  form_id: string;
  /** The UTC day of `submitted_at`, `YYYY-MM-DD`. */
  day: string;
  total: number;
  completed: number;
  /** Sum and count of `completion_seconds` over the day's completed responses that have one. */
  seconds_sum: number;
  seconds_count: number;
}

const counter: EntitySchemaColumnOptions = { type: 'bigint', default: 0 };

/**
 * One row per form and UTC day with responses, kept in step with `responses` by the response repository
 * in the same transaction as each write (docs/responses-and-webhooks.md, "Analytics"); goes with its form.
 */
export const ResponseDayEntity = new EntitySchema<ResponseDayRow & { form?: FormRow }>({
  name: 'FormloomResponseDay',
  tableName: 'response_days',
  columns: {
    form_id: { type: 'varchar', primary: true },
    day: { type: 'varchar', primary: true },
    total: counter,
    completed: counter,
    seconds_sum: counter,
    seconds_count: counter,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_response_days_form_id' },
      onDelete: 'CASCADE',
    },
  },
});
