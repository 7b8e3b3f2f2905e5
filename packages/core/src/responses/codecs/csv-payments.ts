import type { Question } from '../../domain/types';
import type { PaymentRecord, Storage } from '../../ports/storage';
import { csvField } from './csv';

/*
 * A form's payments in its CSV export (docs/payments.md, "In responses"): four columns per payment question after
 * the others (amount in the currency's main unit, currency, status, Stripe's payment id), read at export time so a
 * refund made after the response shows. The stored lines stay as they are (docs/responses-and-webhooks.md, "How the
 * CSV export is fast"): only forms with a payment question pay for this, one read of payments per page.
 */

const PAYMENT_COLUMNS = ['amount', 'currency', 'status', 'id'] as const;

export const paymentQuestions = (questions: readonly Question[]) => questions.filter((q) => q.type === 'payment');

/** The export's header with the payment columns added before its CRLF. */
export function headerWithPayments(header: string, questions: readonly Question[]): string {
  const titles = questions.flatMap((q) => PAYMENT_COLUMNS.map((c) => csvField(`${q.title} - payment ${c}`)));
  return `${header.slice(0, -2)},${titles.join(',')}\r\n`;
}

/** Each CSV record of `text` (CRLF-terminated, quoted fields may hold CRLF), as [start, end-before-CRLF]. */
function records(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let start = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quoted = !quoted;
    else if (!quoted && c === 13 && text.charCodeAt(i + 1) === 10) {
      out.push([start, i]);
      start = i + 2;
      i++;
    }
  }
  return out;
}

const digitsOf = (currency: string) => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
};

const cellsOf = (p: PaymentRecord | undefined) =>
  p ? [(p.amount / 10 ** digitsOf(p.currency)).toFixed(digitsOf(p.currency)), p.currency.toUpperCase(), p.status, p.processor_payment_id].map(csvField).join(',') : ',,,';

/** The page's lines with each response's payment cells appended (the response id is each line's first field). */
export async function linesWithPayments(storage: Storage, text: string, questions: readonly Question[]): Promise<string> {
  const recs = records(text);
  if (!recs.length) return text;
  const ids = recs.map(([s, e]) => {
    const line = text.slice(s, e);
    const comma = line.indexOf(',');
    return comma < 0 ? line : line.slice(0, comma);
  });
  const byKey = new Map<string, PaymentRecord>();
  for (const p of await storage.payments.forResponses(ids)) byKey.set(`${p.response_id} ${p.question_id}`, p);
  let out = '';
  recs.forEach(([s, e], i) => {
    out += `${text.slice(s, e)},${questions.map((q) => cellsOf(byKey.get(`${ids[i]} ${q.id}`))).join(',')}\r\n`;
  });
  return out;
}
