import type { CsvLine, ResponseRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, text, optText, optInt, fromJson, toJson, orNull, optNumber } from './columns';
import type { FormRow } from './forms';

/* Form responses. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface ResponseRow {
  id: string;
  form_id: string;
  visitor_id: string | null;
  version_id: string | null;
  version: number | null;
  answers: string;
  metadata: string;
  quiz_results: string | null;
  started_at: string | null;
  submitted_at: string;
  completed_at: string | null;
  completion_seconds: number | null;
  resume_token_hash: string | null;
  /** Unique per form; NULLs never collide (on SQLite nor PostgreSQL), so only limited forms set it. */
  unique_visitor: string | null;
  /** The response's CSV export line and the key of its columns (core's CsvLine); null before they were stored. */
  csv_layout: string | null;
  csv_line: string | null;
  /** The language answered in (docs/languages.md); migration 1742100000000. */
  language: string | null;
}

export const ResponseEntity = new EntitySchema<ResponseRow & { form?: FormRow }>({
  name: 'FormloomResponse',
  tableName: 'responses',
  columns: {
    id,
    form_id: str,
    visitor_id: optStr,
    version_id: optStr,
    version: optInt,
    answers: text,
    metadata: text,
    quiz_results: optText,
    started_at: optStr,
    submitted_at: str,
    completed_at: optStr,
    completion_seconds: optInt,
    resume_token_hash: optStr,
    unique_visitor: optStr,
    csv_layout: optStr,
    csv_line: optText,
    language: optStr,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_responses_form_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [
    // (form_id, submitted_at, id): listing newest first, the export's keyset scan, the cascade from forms.
    // The two trailing columns make it cover analytics and the listing's count: those read no table row.
    {
      name: 'IDX_responses_form_submitted',
      columns: ['form_id', 'submitted_at', 'id', 'completed_at', 'completion_seconds'],
    },
    { name: 'UQ_responses_form_unique_visitor', columns: ['form_id', 'unique_visitor'], unique: true },
    // SQLite only (migration 1740800000000): the export's pages of stored lines are read from it alone.
    { name: 'IDX_responses_form_lines', columns: ['form_id', 'submitted_at', 'id', 'csv_layout', 'csv_line'], synchronize: false },
    // Only the responses with a Fuse link (migration 1742600000000): `hasFuseLinks` reads it alone.
    { name: 'IDX_responses_fuse_links', columns: ['form_id'], where: `metadata LIKE '%"fused_%'`, synchronize: false },
  ],
});

export const responseFromRow = (r: ResponseRow): ResponseRecord => ({
  id: r.id,
  form_id: r.form_id,
  visitor_id: r.visitor_id,
  version_id: r.version_id,
  version: optNumber(r.version),
  answers: fromJson(r.answers, []),
  metadata: fromJson(r.metadata, { user_agent: null, referrer: null }),
  quiz_results: r.quiz_results == null ? null : fromJson(r.quiz_results, null),
  started_at: r.started_at,
  submitted_at: r.submitted_at,
  completed_at: r.completed_at,
  completion_seconds: optNumber(r.completion_seconds),
  resume_token_hash: r.resume_token_hash,
  unique_visitor: r.unique_visitor,
  language: r.language ?? null,
});

export const responseToRow = (r: ResponseRecord, csv?: CsvLine | null): ResponseRow => ({
  id: r.id,
  form_id: r.form_id,
  visitor_id: orNull(r.visitor_id),
  version_id: orNull(r.version_id),
  version: orNull(r.version),
  answers: toJson(r.answers, []),
  metadata: toJson(r.metadata, { user_agent: null, referrer: null }),
  quiz_results: r.quiz_results == null ? null : toJson(r.quiz_results, null),
  started_at: orNull(r.started_at),
  submitted_at: r.submitted_at,
  completed_at: orNull(r.completed_at),
  completion_seconds: orNull(r.completion_seconds),
  resume_token_hash: orNull(r.resume_token_hash),
  unique_visitor: orNull(r.unique_visitor),
  csv_layout: csv?.layout ?? null,
  csv_line: csv?.line ?? null,
  language: orNull(r.language),
});

/** The columns `updatePartial` writes. */
export const partialResponseToRow = (
  p: Pick<ResponseRecord, 'answers' | 'completed_at' | 'completion_seconds' | 'quiz_results' | 'unique_visitor' | 'submitted_at'> & { metadata?: ResponseRecord['metadata'] },
  csv?: CsvLine | null,
) => ({
  /** null keeps the stored metadata (COALESCE in the statement). */
  metadata: p.metadata ? toJson(p.metadata, { user_agent: null, referrer: null }) : null,
  answers: toJson(p.answers, []),
  completed_at: orNull(p.completed_at),
  completion_seconds: orNull(p.completion_seconds),
  quiz_results: p.quiz_results == null ? null : toJson(p.quiz_results, null),
  unique_visitor: orNull(p.unique_visitor),
  submitted_at: p.submitted_at,
  csv_layout: csv?.layout ?? null,
  csv_line: csv?.line ?? null,
});
