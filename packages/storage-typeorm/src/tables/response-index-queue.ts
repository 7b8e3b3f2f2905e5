import { EntitySchema } from 'typeorm';
import type { ResponseRow } from './responses';

/*
 * The responses waiting for the analytics indexer (repositories/response-indexer.ts; docs/responses-and-webhooks.md,
 * "How a submission is counted"): a submission writes one row here instead of its question, value, funnel, answers
 * index and pair counters; the indexer (or a reader catching up) counts it and deletes the row in one transaction.
 */

export interface ResponseIndexQueueRow {
  response_id: string;
  form_id: string;
}

/** Deleted with its response (cascade): a response deleted before it was counted leaves nothing to count. */
export const ResponseIndexQueueEntity = new EntitySchema<ResponseIndexQueueRow & { response?: ResponseRow }>({
  name: 'FormloomResponseIndexQueue',
  tableName: 'response_index_queue',
  columns: {
    response_id: { type: 'varchar', primary: true },
    form_id: { type: 'varchar' },
  },
  relations: {
    response: {
      type: 'many-to-one',
      target: 'FormloomResponse',
      joinColumn: { name: 'response_id', foreignKeyConstraintName: 'FK_response_index_queue_response_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [{ name: 'IDX_response_index_queue_form', columns: ['form_id'] }],
});
