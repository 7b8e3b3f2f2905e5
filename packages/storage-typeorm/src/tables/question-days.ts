import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';
import type { FormRow } from './forms';

/* Per-question drop-off counters per form and UTC day. Tables as TypeORM entities and their row types (see columns.ts). */

export interface QuestionDayRow {
  form_id: string;
  day: string;
  question_id: string;
  /** Responses of the day with a non-empty answer to the question. */
  answered: number;
  /** Responses of the day whose furthest answered question (by position when written) is this one. */
  furthest: number;
}

const counter: EntitySchemaColumnOptions = { type: 'bigint', default: 0 };

/** Kept in step with `responses` like `response_days` (docs/responses-and-webhooks.md, "Drop-off"). */
export const QuestionDayEntity = new EntitySchema<QuestionDayRow & { form?: FormRow }>({
  name: 'FormloomQuestionDay',
  tableName: 'question_days',
  columns: {
    form_id: { type: 'varchar', primary: true },
    day: { type: 'varchar', primary: true },
    question_id: { type: 'varchar', primary: true },
    answered: counter,
    furthest: counter,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_question_days_form_id' },
      onDelete: 'CASCADE',
    },
  },
});
