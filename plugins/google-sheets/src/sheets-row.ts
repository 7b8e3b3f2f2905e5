/*
 * A response as one row of a sheet (docs/integrations.md, "Google Sheets"): the columns are named by the
 * sheet's header row, made when the sheet is empty; each mapped answer goes under the column of its name,
 * and a name the header does not have yet gets a new column at the end (a question added to the form later).
 */

/** One mapped answer, as the integration framework hands it over (`IntegrationAnswer`). */
export interface RowAnswer {
  name: string;
  type: string;
  value: unknown;
  /** The answer in words ("Yes", a choice's label, a file's name); '' when unanswered. */
  text: string;
  /** A signed link to an uploaded file. */
  file_url?: string;
}

export interface RowInput {
  response_id: string;
  submitted_at: string;
  answers: readonly RowAnswer[];
}

export type Cell = string | number;

/** The first columns of every sheet the plugin starts: when, and which response (to find duplicates). */
export const FIXED_COLUMNS = ['Submitted at', 'Response ID'] as const;

/** The A1 name of the `n`th column (1: A, 27: AA). */
export function columnName(n: number): string {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
}

/** Google Sheets holds at most 50,000 characters in a cell. */
const MAX_CELL = 50_000;

const NUMERIC = new Set(['number', 'rating', 'opinion_scale']);

/** The cell of an answer: numbers stay numbers (so the sheet can sum them), a date is ISO, a file is its link, the rest is text. */
export function cellOf(a: RowAnswer): Cell {
  if (NUMERIC.has(a.type) && typeof a.value === 'number' && Number.isFinite(a.value)) return a.value;
  // A date as stored (2026-12-24), which a sheet sorts and filters; its words are in the respondent's language.
  if (a.type === 'date' && typeof a.value === 'string') return a.value;
  const text = a.type === 'file_upload' && a.file_url ? a.file_url : a.text;
  return text.length > MAX_CELL ? text.slice(0, MAX_CELL) : text;
}

export interface SheetRow {
  /** The header row the sheet must have for `row` (the one it had, or with new columns at the end). */
  header: string[];
  /** Whether `header` differs from the sheet's (written before the row is appended). */
  headerChanged: boolean;
  row: Cell[];
}

/**
 * The row of `input` under `existing` (the sheet's first row; empty when the sheet is empty). Each answer
 * goes to the first column of its name; names not in the header are added after its last column.
 */
export function sheetRow(existing: readonly string[], input: RowInput): SheetRow {
  const header = existing.map((h) => String(h ?? '').trim());
  while (header.length && header[header.length - 1] === '') header.pop();
  const had = header.length;
  const cells = new Map<string, Cell>([
    [FIXED_COLUMNS[0], input.submitted_at],
    [FIXED_COLUMNS[1], input.response_id],
  ]);
  for (const a of input.answers) {
    // An answer named like a fixed column keeps its own column rather than overwrite the response's.
    const name = cells.has(a.name) ? `${a.name} (answer)` : a.name;
    cells.set(name, cellOf(a));
  }
  for (const name of cells.keys()) if (!header.includes(name)) header.push(name);
  const row = header.map((h) => cells.get(h) ?? '');
  return { header, headerChanged: header.length !== had, row };
}
