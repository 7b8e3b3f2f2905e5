import { z } from 'zod';
import { named, timestamp } from '../../api-schemas';
import type { Question } from '../../domain/types';
import type { PackedResponses } from '../../ports/storage/responses';
import { type CsvLayout, placeAnswer } from './csv';
import { pageYesNoWords } from './export-words';
import type { ExtraField } from './export-extras';
import { fuseLinkOut } from '../output-schemas';

const fuseLink = fuseLinkOut.nullable().optional();

/*
 * The XLSX and JSON exports (docs/responses-and-webhooks.md, "Export formats"): the CSV's columns, with each
 * answer both as the respondent saw it (its label) and as stored (its raw value). The CSV keeps its own
 * fast path and bytes (stored lines, packed pages written in place); these formats parse each page's
 * responses, which costs more per response but keeps memory at one page.
 */

/** The words a yes/no answer was shown with: the owner's page words (`strings.yes`/`strings.no`), else the form's language's, else English. */
export interface YesNoWords {
  yes: string;
  no: string;
}

/** The JSON export's body (`?format=json`), as documented in OpenAPI. */
export const responseExportJsonOut = named(
  'ResponseExport',
  z
    .array(
      z.object({
        id: z.string(),
        submitted_at: timestamp,
        completed_at: timestamp.nullable().describe('null: a partial response'),
        answers: z
          .array(
            z.object({
              question_id: z.string(),
              sub_field: z.string().optional().describe("a group question's sub-field key (one entry per answered sub-field)"),
              title: z.string().describe("the CSV's header of the column"),
              label: z.unknown().describe('the answer as the respondent saw it: a yes/no as the page words, choices as their labels joined with ", "'),
              value: z.unknown().describe('the answer as stored'),
            }),
          )
          .describe("only the answered cells, in the columns' order"),
        hidden_fields: z.record(z.string(), z.unknown()),
        payments: z
          .array(
            z.object({
              question_id: z.string(),
              amount: z.number().describe("in the currency's main unit, e.g. 30 for 30.00 EUR"),
              currency: z.string().describe('ISO 4217, upper case'),
              status: z.string().describe('requires_payment, processing, succeeded, failed, canceled, partially_refunded, refunded: as it stands at export time'),
              id: z.string().describe("the processor's payment id (Stripe's PaymentIntent)"),
            }),
          )
          .optional()
          .describe('Forms with a payment question: the payment of each one the respondent reached (docs/payments.md)'),
        confirmation_calls: z
          .array(z.object({ question_id: z.string(), outcome: z.enum(['confirmed', 'cancelled', 'no_answer', 'failed']) }))
          .optional()
          .describe('Forms with confirmation calls: the outcome of each call made for a booking (docs/booking.md, "The outcome")'),
        fused_from: fuseLink.describe('Forms with Fuse links: the response this one started from, in the form whose Fuse question led here (docs/logic.md "Fuse"); null when none'),
        fused_to: fuseLink.describe('Forms with Fuse links: the response this one continued in, in its Fuse form; null when none'),
      }),
    )
    .describe('The responses, oldest first'),
);

/** One column of the export, in the CSV's order. */
export interface ExportColumn {
  /** The CSV's header title. */
  title: string;
  /**
   * `response` for responseId/submittedAt/completedAt, `answer` for a question's (sub-)field, `hidden` for a hidden
   * field, `payment` and `call` for the columns after them (export-extras.ts).
   */
  kind: 'response' | 'answer' | 'hidden' | 'payment' | 'call' | 'fuse';
  /** Which value of a payment, call or Fuse column: `amount`, `currency`, `status`, `id`; `outcome`; `response_id`, `form_id`. */
  field?: ExtraField;
  /** Which link a Fuse column shows (export-extras.ts). */
  link?: 'fused_from' | 'fused_to';
  /** A payment amount's digits after the point (its currency's), for the XLSX's number format. */
  digits?: number;
  /** The question's id (answers only). */
  question_id?: string;
  /** The group question's sub-field key (sub-fields only). */
  sub_field?: string;
  /** The question's type (answers only); a group's sub-field has its sub-question's type when known. */
  type?: string;
}

/** One response: per column, its label (as seen) and its raw value (as stored); `null` where unanswered. */
export interface ExportRow {
  id: string;
  submitted_at: string;
  completed_at: string | null;
  labels: unknown[];
  values: unknown[];
  /** The language the response was given in and the version it answered, when the page was packed with them (null: unknown). */
  language?: string | null;
  version_id?: string | null;
}

const US = '\u001f';
const RS = '\u001e';
const UTF8 = new TextDecoder();

/** The page words of a form's options (`strings`), else of its `language`, else English (export-words.ts). */
export function yesNoWords(options: Record<string, unknown>): YesNoWords {
  return pageYesNoWords(options, typeof options.language === 'string' ? options.language : null);
}

/**
 * An answer as the respondent saw it: a yes/no as the page's word, a list of choices as their labels joined
 * with ", " (choices are stored as their labels), a file as its URL, other objects as JSON text.
 */
export function answerLabel(value: unknown, words: YesNoWords, shown?: ReadonlyMap<string, string>): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  // `shown`: the question's choices as the respondent's language showed them, by stored label (export-words.ts).
  if (shown && typeof value === 'string') return shown.get(value) ?? value;
  if (Array.isArray(value)) return value.map((x) => (typeof x === 'string' ? (shown?.get(x) ?? x) : JSON.stringify(x))).join(', ');
  if (typeof value === 'object') return 'url' in value ? String((value as { url: unknown }).url) : JSON.stringify(value);
  return value;
}

/** The columns of `layout` (built from `questions`), described for the XLSX and JSON writers. */
export function exportColumns(layout: CsvLayout, questions: readonly Question[]): ExportColumn[] {
  const columns: ExportColumn[] = layout.titles.map((title) => ({ title, kind: 'response' }));
  for (const q of questions) {
    const at = layout.place.get(q.id);
    if (at === undefined) continue;
    if (typeof at === 'number') {
      Object.assign(columns[at]!, { kind: 'answer', question_id: q.id, type: q.type });
      continue;
    }
    const subs = new Map(((q.properties.questions as Array<{ id?: string; type?: string }> | undefined) ?? []).map((s) => [s.id, s.type]));
    for (const [key, col] of at) Object.assign(columns[col]!, { kind: 'answer', question_id: q.id, sub_field: key, type: subs.get(key) ?? 'short_text' });
  }
  for (const [, col] of layout.hidden) columns[col]!.kind = 'hidden';
  return columns;
}

/** The rows of a packed export page (see `PackedResponses`), their answers placed in `layout`'s columns. */
export function exportRows(page: PackedResponses, layout: CsvLayout, words: YesNoWords): ExportRow[] {
  const text = UTF8.decode(page.bytes);
  const rows: ExportRow[] = [];
  for (const record of text.split(RS)) {
    if (!record) continue;
    const [id = '', submitted_at = '', completed_at = '', hidden = '', answers = '[]', language, version_id] = record.split(US);
    const values: unknown[] = new Array(layout.width).fill(null);
    values[0] = id;
    values[1] = submitted_at;
    values[2] = completed_at || null;
    for (const a of JSON.parse(answers) as Array<{ question_id: string; value: unknown }>) {
      const at = layout.place.get(a.question_id);
      if (at !== undefined) placeAnswer(at, a.value, (col, v) => (values[col] = v ?? null));
    }
    if (hidden) {
      const h = JSON.parse(hidden) as Record<string, unknown> | null;
      if (h) for (const [name, col] of layout.hidden) values[col] = Object.hasOwn(h, name) ? (h[name] ?? null) : null;
    }
    const labels = values.map((v, i) => (i < 3 ? v : answerLabel(v, words)));
    const row: ExportRow = { id, submitted_at, completed_at: completed_at || null, labels, values };
    // Packed with `language` (ResponseRepository.exportPages): the fields after the answers.
    if (language !== undefined) Object.assign(row, { language: language || null, version_id: version_id || null });
    rows.push(row);
  }
  return rows;
}

/**
 * The JSON export's text, chunk by chunk: one array of responses, each `{id, submitted_at, completed_at,
 * answers: [{question_id, sub_field?, title, label, value}], hidden_fields: {name: value}}`, with only
 * the answered cells (docs/responses-and-webhooks.md, "Export formats"); forms with payment questions add
 * `payments: [{question_id, amount, currency, status, id}]`, forms with confirmation calls
 * `confirmation_calls: [{question_id, outcome}]` (export-extras.ts).
 */
export async function* exportJson(columns: readonly ExportColumn[], pages: AsyncIterable<ExportRow[]>): AsyncGenerator<string> {
  yield '[';
  let first = true;
  for await (const rows of pages) {
    let chunk = '';
    for (const row of rows) {
      const answers: unknown[] = [];
      const hidden: Record<string, unknown> = {};
      const payments = new Map<string, Record<string, unknown>>();
      const calls: unknown[] = [];
      const links: Record<string, Record<string, unknown> | null> = { fused_from: null, fused_to: null };
      for (let i = 3; i < columns.length; i++) {
        const c = columns[i]!;
        const value = row.values[i];
        if (value === null || value === undefined) continue;
        if (c.kind === 'hidden') hidden[c.title] = value;
        else if (c.kind === 'payment') {
          const p = payments.get(c.question_id!) ?? { question_id: c.question_id };
          payments.set(c.question_id!, Object.assign(p, { [c.field!]: value }));
        } else if (c.kind === 'call') calls.push({ question_id: c.question_id, outcome: value });
        else if (c.kind === 'fuse') links[c.link!] = { ...links[c.link!], [c.field!]: value };
        else answers.push({ question_id: c.question_id, ...(c.sub_field === undefined ? {} : { sub_field: c.sub_field }), title: c.title, label: row.labels[i], value });
      }
      const extras = {
        ...(columns.some((c) => c.kind === 'payment') ? { payments: [...payments.values()] } : {}),
        ...(columns.some((c) => c.kind === 'call') ? { confirmation_calls: calls } : {}),
        ...(columns.some((c) => c.kind === 'fuse') ? links : {}),
      };
      chunk += (first ? '\n' : ',\n') + JSON.stringify({ id: row.id, submitted_at: row.submitted_at, completed_at: row.completed_at, answers, hidden_fields: hidden, ...extras });
      first = false;
    }
    if (chunk) yield chunk;
  }
  yield first ? ']\n' : '\n]\n';
}
