import { html, nothing, type TemplateResult } from 'lit';
import type { Question } from '../../data/forms';
import { componentColumns } from './composite-columns';

/*
 * How the responses table shows answers: one column per question, and for questions made of sub-fields
 * (groups, pages, contact and address) one sub-column per sub-field under the question's header.
 */

export interface Column {
  question: Question;
  /** The sub-field's key inside the answer object, for sub-columns. */
  sub?: string;
  label: string;
}

const SUB_FIELD_TYPES = new Set(['question_group', 'multi_question_page', 'contact_info', 'address']);
const FIELD_LABELS: Record<string, string> = {
  first_name: 'First name', last_name: 'Last name', email: 'Email', phone: 'Phone', company: 'Company',
  address_line1: 'Address', address_line2: 'Address 2', city: 'City', state: 'State', zip: 'ZIP', country: 'Country',
};

/** The sub-fields of a question (id or field name, and label), or [] for a one-value question. */
export function subFields(q: Question): Array<{ key: string; label: string }> {
  if (q.type === 'composite') return componentColumns(q);
  if (!SUB_FIELD_TYPES.has(q.type)) return [];
  const p = q.properties ?? {};
  if (Array.isArray(p.questions)) return (p.questions as Array<{ id?: string; title: string }>).map((s, i) => ({ key: s.id ?? String(i), label: s.title }));
  const fields: string[] = Array.isArray(p.fields)
    ? p.fields
    : q.type === 'contact_info'
      ? ['first_name', 'last_name', 'email', 'phone', 'company']
      : ['address_line1', 'address_line2', 'city', 'state', 'zip', 'country'];
  return fields.map((f) => ({ key: f, label: FIELD_LABELS[f] ?? f }));
}

export function columnsOf(questions: Question[]): Column[] {
  return questions.flatMap((q) => {
    const subs = subFields(q);
    return subs.length ? subs.map((s) => ({ question: q, sub: s.key, label: s.label })) : [{ question: q, label: q.title }];
  });
}

/** A file answer `{url, name}`. */
export const isFile = (v: unknown): v is { url: string; name: string } =>
  typeof v === 'object' && v !== null && typeof (v as { url?: unknown }).url === 'string' && typeof (v as { name?: unknown }).name === 'string';

/** A booking answer `{id, start, end, timezone}` (docs/booking.md). */
export const isBooking = (v: unknown): v is { id: string; start: string; end: string; timezone: string } =>
  typeof v === 'object' && v !== null && ['id', 'start', 'end', 'timezone'].every((k) => typeof (v as Record<string, unknown>)[k] === 'string') && Object.keys(v).length === 4;

/** A booked time as the respondent saw it, in their zone: `Mon 7 Dec 2026, 10:00–10:30 (Europe/Paris)`. */
function bookingText(v: { start: string; end: string; timezone: string }): string {
  try {
    const day = new Intl.DateTimeFormat(undefined, { timeZone: v.timezone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(v.start));
    const t = new Intl.DateTimeFormat(undefined, { timeZone: v.timezone, hour: '2-digit', minute: '2-digit' });
    return `${day}, ${t.format(new Date(v.start))}–${t.format(new Date(v.end))} (${v.timezone})`;
  } catch {
    return `${v.start} – ${v.end}`;
  }
}

/** An answer as plain text (table cells, search). */
export function answerText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v)) return v.map(answerText).join(', ');
  if (isFile(v)) return v.name;
  if (isBooking(v)) return bookingText(v);
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).filter((x) => x !== null && x !== '').map(answerText).join(', ');
  return String(v);
}

export function cellValue(answers: Array<{ question_id: string; value?: unknown }>, c: Column): string {
  const a = answers.find((x) => x.question_id === c.question.id);
  if (!a) return '';
  if (c.sub !== undefined) return answerText((a.value as Record<string, unknown> | null)?.[c.sub]);
  return answerText(a.value);
}

const IMAGE = /\.(png|jpe?g|gif|webp|avif)$/i;

/** An answer in the detail panel: files get a preview (images) and a download link. */
export function answerDetail(v: unknown): TemplateResult | string {
  if (isFile(v)) {
    return html`${IMAGE.test(v.name) ? html`<img class="preview" src=${v.url} alt="Uploaded image ${v.name}" loading="lazy" />` : nothing}
      <a href=${v.url} download=${v.name}>Download ${v.name}</a>`;
  }
  const text = answerText(v);
  return text === '' ? html`<span class="muted">No answer</span>` : text;
}
