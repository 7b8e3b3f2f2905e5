import type { FormRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, str, optStr, text, optText, bool, int, toBool, fromJson, toJson, pick, type Bool } from './columns';

/* Forms (their questions and versions are form-content). Tables as TypeORM entities, their row types, and the record <-> row mappers (see columns.ts). */

export interface FormRow {
  id: string;
  owner_id: string;
  team_id: string | null;
  slug: string;
  title: string;
  /** `title` lower-cased in JS, so the case-insensitive search folds non-ASCII letters on SQLite too. */
  title_search: string;
  description: string | null;
  published: Bool;
  has_unpublished_changes: Bool;
  published_version_id: string | null;
  response_count: number;
  theme_color: string | null;
  background_color: string | null;
  options: string;
  created_at: string;
  updated_at: string;
}

export const FormEntity = new EntitySchema<FormRow>({
  name: 'FormloomForm',
  tableName: 'forms',
  columns: {
    id,
    owner_id: str,
    team_id: optStr,
    slug: str,
    title: text,
    title_search: text,
    description: optText,
    published: bool,
    has_unpublished_changes: bool,
    published_version_id: optStr,
    response_count: int,
    theme_color: optStr,
    background_color: optStr,
    options: text,
    created_at: str,
    updated_at: str,
  },
  indices: [
    { name: 'UQ_forms_slug', columns: ['slug'], unique: true },
    { name: 'IDX_forms_owner_id', columns: ['owner_id'] },
    { name: 'IDX_forms_team_id', columns: ['team_id'] },
    { name: 'IDX_forms_owner_list', columns: ['owner_id', 'team_id', 'updated_at', 'id'] },
    { name: 'IDX_forms_team_list', columns: ['team_id', 'updated_at', 'id'] },
  ],
});

export const formFromRow = (r: FormRow): FormRecord => ({
  id: r.id,
  owner_id: r.owner_id,
  team_id: r.team_id,
  slug: r.slug,
  title: r.title,
  description: r.description,
  published: toBool(r.published),
  has_unpublished_changes: toBool(r.has_unpublished_changes),
  published_version_id: r.published_version_id,
  response_count: Number(r.response_count),
  theme_color: r.theme_color,
  background_color: r.background_color,
  options: fromJson(r.options, {}),
  created_at: r.created_at,
  updated_at: r.updated_at,
});

/** Only the fields present in `f` (a whole record or a patch); unknown keys such as `questions` are dropped. */
export const formToRow = (f: Partial<FormRecord>): Partial<FormRow> =>
  pick({
    id: f.id,
    owner_id: f.owner_id,
    team_id: f.team_id,
    slug: f.slug,
    title: f.title,
    title_search: f.title === undefined ? undefined : f.title.toLowerCase(),
    description: f.description,
    published: f.published,
    has_unpublished_changes: f.has_unpublished_changes,
    published_version_id: f.published_version_id,
    response_count: f.response_count,
    theme_color: f.theme_color,
    background_color: f.background_color,
    options: f.options === undefined ? undefined : toJson(f.options, {}),
    created_at: f.created_at,
    updated_at: f.updated_at,
  });
