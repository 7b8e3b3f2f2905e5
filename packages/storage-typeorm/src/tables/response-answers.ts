import { EntitySchema } from 'typeorm';
import type { FormRow } from './forms';
import type { ResponseRow } from './responses';

/*
 * The index of answers that filters by answer read (docs/responses-and-webhooks.md, "Filtering by answer"),
 * and the funnel's counters per version ("Funnel"). Tables as TypeORM entities and their row types.
 */

export interface ResponseAnswerRow {
  response_id: string;
  question_id: string;
  /**
   * The answer's counted key (repositories/question-values.ts, `valueKeys`: a choice's label, `true`/`false`,
   * a date, a number as counted), one row per key; '' for an answer without keys (text, files, groups), so
   * every answered question has a row.
   */
  value: string;
  form_id: string;
  /** The number of a number, rating or opinion scale answer (not rounded), else null. */
  num: number | null;
  /** The response's `submitted_at`, so a filter's dates are read from this index too. */
  submitted_at: string;
}

/**
 * One row per answered question and key of each response, written with the response in the same
 * transaction and deleted with it (cascade): a filter finds its responses by (form, question, value) or
 * (form, question, num) without reading a response, and a filtered summary reads the matching responses'
 * keys by `response_id`.
 */
export const ResponseAnswerEntity = new EntitySchema<ResponseAnswerRow & { response?: ResponseRow }>({
  name: 'FormloomResponseAnswer',
  tableName: 'response_answers',
  columns: {
    response_id: { type: 'varchar', primary: true },
    question_id: { type: 'varchar', primary: true },
    value: { type: 'varchar', primary: true },
    form_id: { type: 'varchar' },
    num: { type: 'double precision', nullable: true },
    submitted_at: { type: 'varchar' },
  },
  relations: {
    response: {
      type: 'many-to-one',
      target: 'FormloomResponse',
      joinColumn: { name: 'response_id', foreignKeyConstraintName: 'FK_response_answers_response_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [
    { name: 'IDX_response_answers_value', columns: ['form_id', 'question_id', 'value', 'submitted_at', 'response_id'] },
    { name: 'IDX_response_answers_num', columns: ['form_id', 'question_id', 'num', 'submitted_at', 'response_id'], where: '"num" IS NOT NULL' },
  ],
});

export interface ResponseFunnelRow {
  form_id: string;
  /** The published version's number; 0 for responses stored without one. */
  version: number;
  /** `$views`, `$starts`, `$responses`, `$completed`, `q:<question id>` (responses that stopped there), `$s:<seconds>`. */
  step: string;
  count: number;
}

/** Per form, version and step, a counter kept by upsert-increments (repositories/funnel.ts); goes with its form. */
export const ResponseFunnelEntity = new EntitySchema<ResponseFunnelRow & { form?: FormRow }>({
  name: 'FormloomResponseFunnel',
  tableName: 'response_funnel',
  columns: {
    form_id: { type: 'varchar', primary: true },
    version: { type: 'integer', primary: true },
    step: { type: 'varchar', primary: true },
    count: { type: 'bigint', default: 0 },
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_response_funnel_form_id' },
      onDelete: 'CASCADE',
    },
  },
});
