import type { Question, ResponseRecord } from '../../domain/types';
import { sha256Hex } from '../../hashing';
import { GROUP_QUESTION_TYPES, type QuestionType } from '../../forms/question-types';
import { componentKey, pinnedComponents } from '../../forms/composite-components';

/** A response as the export reads it: `hidden` is its hidden field values (`metadata.hidden`). */
export type CsvResponse = Pick<ResponseRecord, 'id' | 'submitted_at' | 'completed_at' | 'answers'> & {
  hidden?: Record<string, unknown> | null;
};

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field. Text a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage
 * return) is prefixed with a single quote so that it is shown, not executed: whatever text the cell came
 * from (a string, a list of choices, a file's URL, an object). Only JSON numbers and booleans are written
 * bare (a negative number is a number, not a formula).
 */
export function csvField(v: unknown): string {
  let s: string;
  if (v === null || v === undefined) s = '';
  else if (typeof v === 'string') s = v;
  else if (typeof v === 'number' || typeof v === 'boolean') s = String(v);
  else if (Array.isArray(v)) s = v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ');
  else if (typeof v === 'object' && 'url' in (v as object)) s = String((v as { url: unknown }).url);
  else s = JSON.stringify(v);
  if (typeof v !== 'number' && typeof v !== 'boolean' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvRow(cells: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) line += (i ? ',' : '') + csvField(cells[i]);
  return `${line}\r\n`;
}

/** Where one question's answer goes: its column, or its sub-field keys and their columns. */
export type CsvColumns = number | Array<[string, number]>;

/** Where each answer goes, by question id. */
export type CsvPlacement = Map<string, CsvColumns>;

/**
 * Puts an answer's value in its column(s) with `set`: the whole value in a one-column question, an object's
 * sub-fields in a group question's columns (a group answer that is not an object fills nothing).
 */
export function placeAnswer(at: CsvColumns, value: unknown, set: (col: number, value: unknown) => void): void {
  if (typeof at === 'number') set(at, value);
  else if (value && typeof value === 'object') for (const [key, col] of at) set(col, (value as Record<string, unknown>)[key]);
}

export interface CsvLayout {
  /** The header line, CRLF included. */
  header: string;
  /** The header's titles, one per column (the XLSX and JSON exports use them). */
  titles: readonly string[];
  /** Columns in a row. */
  width: number;
  place: CsvPlacement;
  /** Each hidden field's name and its column, after the questions' columns. */
  hidden: Array<[string, number]>;
  /**
   * What a row's cells depend on (each question's id and sub-fields in order, the hidden fields' names),
   * hashed: two layouts with one key write any response the same line. Titles are not in it, as they are
   * only in the header.
   */
  key: string;
  /** One response's line, CRLF included. */
  row(r: CsvResponse): string;
}

const SUB_FIELD_TITLES: Record<string, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  company: 'Company',
  address_line1: 'Address line 1',
  address_line2: 'Address line 2',
  city: 'City',
  state: 'State',
  zip: 'ZIP',
  country: 'Country',
};

/**
 * A composite question's columns (docs/logic.md "Composite"): one per question of each component its version
 * pinned, keyed as its answer is (`<form id>/<question id>`), headed by the component's title and the question's.
 * Null for other questions, and for a composite without components (one column, as before).
 */
function compositeColumns(q: Question): Array<{ key: string; title: string }> | null {
  const components = pinnedComponents(q);
  if (!components.length) return null;
  return components.flatMap((c) => c.questions.map((cq) => ({ key: componentKey(c.form_id, cq.id), title: `${c.title}: ${cq.title}` })));
}

/**
 * The CSV layout (docs/responses-and-webhooks.md): `responseId`, `submittedAt`, `completedAt`, then one column per question,
 * or per sub-field for group questions, then one per hidden field of the form (headed by its name). `row`
 * writes a response's cells into one reused array, placing each answer by its question's column: no
 * per-row lookup structure, which matters over 100,000 rows.
 */
export function csvLayout(questions: Question[], hiddenFields: readonly string[] = []): CsvLayout {
  const headers = ['responseId', 'submittedAt', 'completedAt'];
  /** question id -> its column, or its sub-field keys and their columns. */
  const place: CsvPlacement = new Map();
  for (const q of questions) {
    const components = compositeColumns(q);
    if (!GROUP_QUESTION_TYPES.includes(q.type as QuestionType) && !components) {
      place.set(q.id, headers.length);
      headers.push(q.title);
      continue;
    }
    const subs =
      components ??
      (q.type === 'contact_info' || q.type === 'address'
        ? ((q.properties.fields as string[] | undefined) ?? []).map((f) => ({ key: f, title: SUB_FIELD_TITLES[f] ?? f }))
        : ((q.properties.questions as Array<{ id: string; title: string }> | undefined) ?? []).map((s) => ({ key: s.id, title: s.title })));
    const slots: Array<[string, number]> = [];
    for (const sub of subs) {
      slots.push([sub.key, headers.length]);
      headers.push(`${q.title} - ${sub.title}`);
    }
    place.set(q.id, slots);
  }
  const hidden: Array<[string, number]> = [];
  for (const name of new Set(hiddenFields)) {
    hidden.push([name, headers.length]);
    headers.push(name);
  }
  const shape = [...place].map(([id, at]) => [id, typeof at === 'number' ? null : at.map(([sub]) => sub)]);
  const key = sha256Hex(JSON.stringify([shape, hidden.map(([name]) => name)])).slice(0, 20);
  const cells: unknown[] = new Array(headers.length);
  const setCell = (col: number, value: unknown) => {
    cells[col] = value;
  };
  return {
    header: csvRow(headers),
    titles: headers,
    width: headers.length,
    place,
    hidden,
    key,
    row(r: CsvResponse): string {
      cells.fill(undefined);
      cells[0] = r.id;
      cells[1] = r.submitted_at;
      cells[2] = r.completed_at ?? '';
      for (const a of r.answers) {
        const at = place.get(a.question_id);
        if (at !== undefined) placeAnswer(at, a.value, setCell);
      }
      if (r.hidden) for (const [name, col] of hidden) cells[col] = Object.hasOwn(r.hidden, name) ? r.hidden[name] : undefined;
      return csvRow(cells);
    },
  };
}
