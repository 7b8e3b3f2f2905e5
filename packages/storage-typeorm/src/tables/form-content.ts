import type { Question, Version } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, text, optText, bool, int, toBool, fromJson, toJson, orNull, type Bool } from './columns';
import type { FormRow } from './forms';

/* A form's questions and published versions. Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface QuestionRow {
  form_id: string;
  id: string;
  type: string;
  title: string;
  description: string | null;
  required: Bool;
  sort_order: number;
  properties: string;
  logic_jumps: string;
  validations: string;
}

/** Question ids are scoped to their form (primary key form_id + id), so a duplicated form may keep them. */
export const QuestionEntity = new EntitySchema<QuestionRow & { form?: FormRow }>({
  name: 'FormloomQuestion',
  tableName: 'questions',
  columns: {
    form_id: { type: 'varchar', primary: true },
    id,
    type: str,
    title: text,
    description: optText,
    required: bool,
    sort_order: int,
    properties: text,
    logic_jumps: text,
    validations: text,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_questions_form_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [{ name: 'IDX_questions_form_order', columns: ['form_id', 'sort_order'] }],
});

export interface VersionRow {
  id: string;
  form_id: string;
  version: number;
  published_by: string;
  published_by_name: string | null;
  created_at: string;
  changelog: string;
  snapshot: string;
}

export const VersionEntity = new EntitySchema<VersionRow & { form?: FormRow }>({
  name: 'FormloomVersion',
  tableName: 'form_versions',
  columns: {
    id,
    form_id: str,
    version: int,
    published_by: str,
    published_by_name: optStr,
    created_at: str,
    changelog: text,
    snapshot: text,
  },
  relations: {
    form: {
      type: 'many-to-one',
      target: 'FormloomForm',
      joinColumn: { name: 'form_id', foreignKeyConstraintName: 'FK_form_versions_form_id' },
      onDelete: 'CASCADE',
    },
  },
  indices: [{ name: 'UQ_form_versions_form_version', columns: ['form_id', 'version'], unique: true }],
});

export const questionFromRow = (r: QuestionRow): Question => ({
  id: r.id,
  type: r.type,
  title: r.title,
  description: r.description,
  required: toBool(r.required),
  order: Number(r.sort_order),
  properties: fromJson(r.properties, {}),
  logic_jumps: fromJson(r.logic_jumps, []),
  validations: fromJson(r.validations, {}),
});

export const questionToRow = (formId: string, q: Question): QuestionRow => ({
  form_id: formId,
  id: q.id,
  type: q.type,
  title: q.title,
  description: orNull(q.description),
  required: !!q.required,
  sort_order: q.order,
  properties: toJson(q.properties, {}),
  logic_jumps: toJson(q.logic_jumps, []),
  validations: toJson(q.validations, {}),
});

export const versionFromRow = (r: VersionRow): Version => ({
  id: r.id,
  form_id: r.form_id,
  version: Number(r.version),
  published_by: r.published_by,
  published_by_name: r.published_by_name,
  created_at: r.created_at,
  changelog: fromJson(r.changelog, []),
  snapshot: fromJson(r.snapshot, {}),
});

export const versionToRow = (v: Version): VersionRow => ({
  id: v.id,
  form_id: v.form_id,
  version: v.version,
  published_by: v.published_by,
  published_by_name: orNull(v.published_by_name),
  created_at: v.created_at,
  changelog: toJson(v.changelog, []),
  snapshot: toJson(v.snapshot, {}),
});
