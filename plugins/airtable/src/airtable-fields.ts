/*
 * A response as the fields of an Airtable record (docs/integrations.md, "Airtable"): each mapped answer goes
 * to the field of its name. Numbers go as numbers, yes/no as a checkbox's true/false, a multiple choice as
 * a list (a multiple select), a file as an attachment Airtable copies from its signed link; everything else
 * as text, which Airtable turns into the field's type (`typecast`: a new select option, a date, an email).
 * The owner names the answers after the table's fields in the Integrations tab.
 */

/** One mapped answer, as the integration framework hands it over (`IntegrationAnswer`). */
export interface RecordAnswer {
  name: string;
  type: string;
  value: unknown;
  /** The answer in words; '' when unanswered. */
  text: string;
  /** A signed link to an uploaded file. */
  file_url?: string;
}

export type FieldValue = string | number | boolean | string[] | Array<{ url: string; filename: string }>;

const NUMERIC = new Set(['number', 'rating', 'opinion_scale']);

/** Airtable's long text holds at most 100,000 characters. */
const MAX_TEXT = 100_000;

/** The field value of an answer; undefined when unanswered (the field is left empty). */
export function fieldValue(a: RecordAnswer): FieldValue | undefined {
  if (a.value === null || a.value === undefined || (a.text === '' && typeof a.value !== 'boolean')) return undefined;
  if (NUMERIC.has(a.type) && typeof a.value === 'number' && Number.isFinite(a.value)) return a.value;
  if (typeof a.value === 'boolean') return a.value;
  // A date as the ISO date it is stored as (its words are in the respondent's language).
  if (a.type === 'date' && typeof a.value === 'string') return a.value;
  if (a.type === 'file_upload' && a.file_url) return [{ url: a.file_url, filename: a.text || 'file' }];
  if (Array.isArray(a.value)) return a.value.map((v) => String(v));
  return a.text.slice(0, MAX_TEXT);
}

/** The record's fields: each answered question under its name. */
export function recordFields(answers: readonly RecordAnswer[]): Record<string, FieldValue> {
  const fields: Record<string, FieldValue> = {};
  for (const a of answers) {
    const v = fieldValue(a);
    if (v !== undefined) fields[a.name] = v;
  }
  return fields;
}

/** A base's id (`app` and 14 letters or digits), found in its address (`https://airtable.com/appXXXX/tblYYYY/...`) or given as is. */
export function baseIdOf(input: string): string | null {
  return /\b(app[A-Za-z0-9]{14})\b/.exec(input.trim())?.[1] ?? null;
}

/** The table: its id found in an address (`tbl...`), else the name as given (at most 255 characters). */
export function tableOf(input: string): string | null {
  const s = input.trim();
  const id = /\b(tbl[A-Za-z0-9]{14})\b/.exec(s)?.[1];
  if (id) return id;
  return s && s.length <= 255 && !/^https?:/i.test(s) ? s : null;
}
