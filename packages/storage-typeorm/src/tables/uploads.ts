import type { UploadRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, int, optStr, str } from './columns';
import type { FormRow } from './forms';

/* Respondents' uploads. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface UploadRow {
  id: string;
  form_id: string;
  question_id: string;
  key: string;
  size: number;
  response_id: string | null;
  created_at: string;
}

/** Uploads go with their form (ON DELETE CASCADE); `key` is the blob store key. */
export const UploadEntity = new EntitySchema<UploadRow & { form?: FormRow }>({
  name: 'FormloomUpload',
  tableName: 'uploads',
  columns: { id, form_id: str, question_id: str, key: str, size: int, response_id: optStr, created_at: str },
  indices: [
    { name: 'UQ_uploads_key', columns: ['key'], unique: true },
    { name: 'IDX_uploads_form', columns: ['form_id'] },
    { name: 'IDX_uploads_response_created', columns: ['response_id', 'created_at'] },
  ],
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_uploads_form_id' },
      onDelete: 'CASCADE',
    },
  },
});

export const uploadFromRow = (r: UploadRow): UploadRecord => ({
  id: r.id,
  form_id: r.form_id,
  question_id: r.question_id,
  key: r.key,
  size: Number(r.size),
  response_id: r.response_id ?? null,
  created_at: r.created_at,
});
