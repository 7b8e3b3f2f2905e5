import type { EntitySchema, EntitySchemaColumnOptions } from 'typeorm';

/*
 * What every table file shares. Property names are the column names, so a row read by hand-written SQL and
 * an entity have one shape (the `*Row` types). Timestamps are ISO-8601 strings: they sort as text and read
 * back exactly on SQLite and PostgreSQL. JSON is text. Booleans read back as 0/1 on SQLite.
 *
 * Mappers turn rows into the domain records of @formloom/core and back. Rows are what either driver hands
 * back: SQLite booleans are 0/1, JSON columns are text, and PostgreSQL counts may be strings.
 */

export const id: EntitySchemaColumnOptions = { type: 'varchar', primary: true };
export const str: EntitySchemaColumnOptions = { type: 'varchar' };
export const optStr: EntitySchemaColumnOptions = { type: 'varchar', nullable: true };
export const text: EntitySchemaColumnOptions = { type: 'text' };
export const optText: EntitySchemaColumnOptions = { type: 'text', nullable: true };
export const bool: EntitySchemaColumnOptions = { type: 'boolean' };
export const int: EntitySchemaColumnOptions = { type: 'integer' };
export const optInt: EntitySchemaColumnOptions = { type: 'integer', nullable: true };

export type Bool = boolean | number;

export const toBool = (v: unknown): boolean => v === true || v === 1 || v === '1' || v === 't' || v === 'true';
export const fromJson = <T>(v: unknown, fallback: T): T =>
  typeof v === 'string' ? (JSON.parse(v) as T) : v == null ? fallback : (v as T);
export const toJson = (v: unknown, fallback: unknown): string => JSON.stringify(v ?? fallback);
export const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
export const optNumber = (v: unknown): number | null => (v == null ? null : Number(v));
export const lowerEmail = (email: string) => email.trim().toLowerCase();

/** Drops the keys whose value is `undefined`: they are absent from a patch, not set to null. */
export function pick<T extends object>(row: T): Partial<T> {
  const out: Partial<T> = {};
  for (const key of Object.keys(row) as (keyof T)[]) if (row[key] !== undefined) out[key] = row[key];
  return out;
}

/** The column names of an entity, in declaration order: the column list of our INSERT statements. */
export const columnsOf = (entity: EntitySchema<any>): string[] => Object.keys(entity.options.columns);

/** The SQL type an entity declares for `column` (as the migrations create it), or undefined for no such column. */
export const columnTypeOf = (entity: EntitySchema<any>, column: string): string | undefined => {
  const type = (entity.options.columns as Record<string, { type?: unknown } | undefined>)[column]?.type;
  return typeof type === 'string' ? type : undefined;
};
