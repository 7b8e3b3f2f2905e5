import { EntitySchema } from 'typeorm';
import type { FormRow } from './forms';

/*
 * Counts of answers under one answer (docs/responses-and-webhooks.md, "Filtering by answer"; docs/decisions.md,
 * "Filtered summaries from pair counts"): per form, per choice-like answer (`question_id`, `value`), what the
 * responses that gave it answered, so a summary filtered by that answer reads counters, not responses.
 */

export interface AnswerPairRow {
  form_id: string;
  /** The filter's side: a dropdown, multiple choice, yes/no, rating or opinion scale question. */
  question_id: string;
  /** Its counted key (repositories/question-values.ts, `valueKeys`). */
  value: string;
  /** '' for the responses' day rows; else another question of the same responses (or the same one). */
  target_id: string;
  /**
   * The target's counted key (`n` responses gave it); for a day row, the UTC day, then `\u0001` and the question
   * the responses stopped at, then `\u0001<question>\u0002<keys>` for each of their answers without exactly one
   * key (repositories/answer-pairs.ts): `n` responses, `completed`, `seconds_*`.
   */
  target_value: string;
  n: number;
  completed: number;
  seconds_sum: number;
  seconds_count: number;
}

/** Kept in step with `responses` like `question_values`: signed upsert-increments in the same transaction. */
export const AnswerPairEntity = new EntitySchema<AnswerPairRow & { form?: FormRow }>({
  name: 'FormloomAnswerPair',
  tableName: 'answer_pairs',
  columns: {
    form_id: { type: 'varchar', primary: true },
    question_id: { type: 'varchar', primary: true },
    value: { type: 'varchar', primary: true },
    target_id: { type: 'varchar', primary: true },
    target_value: { type: 'varchar', primary: true },
    n: { type: 'bigint', default: 0 },
    completed: { type: 'bigint', default: 0 },
    seconds_sum: { type: 'double precision', default: 0 },
    seconds_count: { type: 'bigint', default: 0 },
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_answer_pairs_form_id' },
      onDelete: 'CASCADE',
    },
  },
});
