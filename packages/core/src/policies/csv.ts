import type { Question, ResponseRecord } from '../domain/types';
import { GROUP_QUESTION_TYPES, type QuestionType } from '../schemas/question-types';

/** One CSV column: its header and how to read a response's cell. */
export interface CsvColumn {
  header: string;
  cell(r: ResponseRecord, answers: Map<string, unknown>): unknown;
}

const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One RFC 4180 field. Text a spreadsheet would run as a formula (starting with =, +, -, @, tab or carriage
 * return) is prefixed with a single quote so that it is shown, not executed.
 */
export function csvField(v: unknown): string {
  let s: string;
  if (v === null || v === undefined) s = '';
  else if (typeof v === 'string') s = v;
  else if (typeof v === 'number' || typeof v === 'boolean') s = String(v);
  else if (Array.isArray(v)) s = v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(', ');
  else if (typeof v === 'object' && 'url' in (v as object)) s = String((v as { url: unknown }).url);
  else s = JSON.stringify(v);
  if (typeof v === 'string' && FORMULA_START.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export const csvRow = (cells: unknown[]) => `${cells.map(csvField).join(',')}\r\n`;

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

/** Columns of document 1: `responseId`, `submittedAt`, `completedAt`, then one per question or sub-field. */
export function csvColumns(questions: Question[]): CsvColumn[] {
  const cols: CsvColumn[] = [
    { header: 'responseId', cell: (r) => r.id },
    { header: 'submittedAt', cell: (r) => r.submitted_at },
    { header: 'completedAt', cell: (r) => r.completed_at ?? '' },
  ];
  for (const q of questions) {
    if (!GROUP_QUESTION_TYPES.includes(q.type as QuestionType)) {
      cols.push({ header: q.title, cell: (_r, a) => a.get(q.id) });
      continue;
    }
    const subs =
      q.type === 'contact_info' || q.type === 'address'
        ? ((q.properties.fields as string[] | undefined) ?? []).map((f) => ({ key: f, title: SUB_FIELD_TITLES[f] ?? f }))
        : ((q.properties.questions as Array<{ id: string; title: string }> | undefined) ?? []).map((s) => ({ key: s.id, title: s.title }));
    for (const sub of subs) {
      cols.push({
        header: `${q.title} - ${sub.title}`,
        cell: (_r, a) => (a.get(q.id) as Record<string, unknown> | undefined)?.[sub.key],
      });
    }
  }
  return cols;
}
