import { EntitySchema } from 'typeorm';
import type { FormRow } from './forms';

/* Answer distributions per form, UTC day, question and counted value (docs/responses-and-webhooks.md, "Question summaries"). */

export interface QuestionValueRow {
  form_id: string;
  /** The UTC day (YYYY-MM-DD), or '*' for the form's whole life (repositories/question-values.ts, ALL_TIME). */
  day: string;
  question_id: string;
  /** The counted value's key (repositories/question-values.ts, `valueKeys`). */
  value: string;
  count: number;
}

/** Kept in step with `responses` like `question_days`, by upsert-increments in the same transaction. */
export const QuestionValueEntity = new EntitySchema<QuestionValueRow & { form?: FormRow }>({
  name: 'FormloomQuestionValue',
  tableName: 'question_values',
  columns: {
    form_id: { type: 'varchar', primary: true },
    day: { type: 'varchar', primary: true },
    question_id: { type: 'varchar', primary: true },
    value: { type: 'varchar', primary: true },
    count: { type: 'bigint', default: 0 },
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_question_values_form_id' },
      onDelete: 'CASCADE',
    },
  },
});
