import type { FuseLink, Question } from '../../domain/types';
import type { PaymentRecord, Storage } from '../../ports/storage';

/*
 * The columns of an export that are not answers (docs/payments.md, "In responses"; docs/booking.md, "The outcome"):
 * four per payment question (the amount in the currency's main unit, the currency, the status, the processor's
 * payment id) and one per booking question with confirmation calls (the call's outcome); then, for a form whose
 * responses are linked by a Fuse (docs/logic.md, "Fuse"), four for the links: the response and form it started from
 * and the ones it continued in. They are read at export time, one read per page, so a refund or a call's outcome
 * after the response shows; the stored CSV lines stay as they are (docs/responses-and-webhooks.md, "How the CSV
 * export is fast"). Only forms with such questions or links pay for this.
 */

export type ExtraField = 'amount' | 'currency' | 'status' | 'id' | 'outcome' | 'response_id' | 'form_id';

/** One column after the answers and hidden fields. */
export interface ExtraColumn {
  /** The header: `<question title> - payment amount`, ..., `<question title> - call outcome` or `Started from - response`, .... */
  title: string;
  kind: 'payment' | 'call' | 'fuse';
  /** The question (payments and calls; empty for a Fuse link). */
  question_id: string;
  /** Which link a Fuse column shows: `fused_from` (Started from) or `fused_to` (Continued in). */
  link?: 'fused_from' | 'fused_to';
  field: ExtraField;
  /** The digits after the point of a payment amount column (the question's currency: 2 for EUR, 0 for JPY). */
  digits?: number;
}

const PAYMENT_FIELDS = ['amount', 'currency', 'status', 'id'] as const;

const FUSE_COLUMNS: ExtraColumn[] = (['fused_from', 'fused_to'] as const).flatMap((link) =>
  (['response_id', 'form_id'] as const).map((field): ExtraColumn => ({
    title: `${link === 'fused_from' ? 'Started from' : 'Continued in'} - ${field === 'response_id' ? 'response' : 'form'}`,
    kind: 'fuse',
    question_id: '',
    field,
    link,
  })),
);

/**
 * The extra columns of a form's questions, payments first (the CSV's order since they were added), then the Fuse
 * links' when `fuse` (the form has a Fuse question or a response with a link: `fuseColumnsWanted`).
 */
export function extraColumns(questions: readonly Question[], fuse = false): ExtraColumn[] {
  const payments = questions
    .filter((q) => q.type === 'payment')
    .flatMap((q) =>
      PAYMENT_FIELDS.map((field): ExtraColumn => ({
        title: `${q.title} - payment ${field}`,
        kind: 'payment',
        question_id: q.id,
        field,
        ...(field === 'amount' && typeof q.properties.currency === 'string' ? { digits: currencyDigits(q.properties.currency) } : {}),
      })),
    );
  const calls = questions
    .filter((q) => q.type === 'booking' && q.properties.confirmation_call === true)
    .map((q): ExtraColumn => ({ title: `${q.title} - call outcome`, kind: 'call', question_id: q.id, field: 'outcome' }));
  return [...payments, ...calls, ...(fuse ? FUSE_COLUMNS : [])];
}

/** Whether the export has the Fuse link columns: the form has a Fuse question, or one of its responses has a link (it is a Fuse form). */
export async function fuseColumnsWanted(storage: Storage, formId: string, questions: readonly Question[]): Promise<boolean> {
  return questions.some((q) => q.type === 'fuse') || (await storage.responses.hasFuseLinks(formId));
}

/** Digits after the point of a currency (0 for JPY), from `Intl`; 2 for a code it does not know. */
export const currencyDigits = (currency: string) => {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
};

/** An amount in the smallest unit as a number in the currency's main unit (`3000` EUR is `30`). */
export const mainUnit = (p: Pick<PaymentRecord, 'amount' | 'currency'>) => Number((p.amount / 10 ** currencyDigits(p.currency)).toFixed(currencyDigits(p.currency)));

function paymentValue(p: PaymentRecord | undefined, field: ExtraField, text: boolean): unknown {
  if (!p) return null;
  if (field === 'amount') return text ? mainUnit(p).toFixed(currencyDigits(p.currency)) : mainUnit(p);
  if (field === 'currency') return p.currency.toUpperCase();
  if (field === 'status') return p.status;
  return p.processor_payment_id;
}

/**
 * Each response's values of `columns` (in their order; null where there is nothing: no payment yet, no call, a call
 * under way), by response id. One read of payments, and of bookings and calls only when there are call columns.
 * `text`: amounts as the CSV writes them (`30.00`), else as numbers.
 */
export async function extraValues(storage: Storage, formId: string, responseIds: readonly string[], columns: readonly ExtraColumn[], text = false): Promise<Map<string, unknown[]>> {
  const out = new Map<string, unknown[]>();
  if (!responseIds.length || !columns.length) return out;
  const payments = new Map<string, PaymentRecord>();
  if (columns.some((c) => c.kind === 'payment')) {
    for (const p of await storage.payments.forResponses(responseIds)) payments.set(`${p.response_id} ${p.question_id}`, p);
  }
  const outcomes = new Map<string, string>();
  if (columns.some((c) => c.kind === 'call')) {
    const bookings = await storage.bookings.forResponsesAnyState(responseIds);
    const byId = new Map(bookings.map((b) => [b.id, b]));
    // A moved booking is a new one that is not called again: the call belongs to the first booking of the question.
    for (const call of bookings.length ? await storage.bookingCalls.forBookings(bookings.map((b) => b.id)) : []) {
      const b = byId.get(call.booking_id);
      if (b?.response_id && call.outcome) outcomes.set(`${b.response_id} ${b.question_id}`, call.outcome);
    }
  }
  const links = new Map<string, { fused_from: FuseLink | null; fused_to: FuseLink | null }>();
  if (columns.some((c) => c.kind === 'fuse')) {
    for (const l of await storage.responses.fuseLinks(formId, [...responseIds])) links.set(l.id, l);
  }
  const value = (id: string, c: ExtraColumn) => {
    if (c.kind === 'payment') return paymentValue(payments.get(`${id} ${c.question_id}`), c.field, text);
    if (c.kind === 'call') return outcomes.get(`${id} ${c.question_id}`) ?? null;
    return links.get(id)?.[c.link!]?.[c.field as 'response_id' | 'form_id'] ?? null;
  };
  for (const id of responseIds) out.set(id, columns.map((c) => value(id, c)));
  return out;
}
