import type { Question } from '../domain/types';
import { computeVariables } from '../logic/actions';
import { visiblePath } from '../logic/jumps';

/** Digits after the decimal point of `currency` (2 for EUR, 0 for JPY, 3 for KWD), from ISO 4217 as Intl knows it. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** An amount in the currency's main unit (12.5 EUR) as an integer in its smallest unit (1250). */
export const minorUnits = (amount: number, currency: string) => Math.round(amount * 10 ** currencyDigits(currency));

export interface PaymentSnapshot {
  questions: Question[];
  start_logic_jumps?: unknown;
  variables?: Record<string, unknown>;
}

export type AmountOutcome =
  | { ok: true; amount: number; currency: string }
  | { ok: false; reason: 'payment_not_on_path' | 'payment_amount_invalid'; message: string };

/**
 * What a payment question charges, computed by the server from the stored answers (docs/payments.md, "Amounts"):
 * its fixed `amount`, or its `amount_variable` after the logic's actions of the questions the respondent passed
 * on the way to it. Never from the browser.
 */
export function paymentAmount(snapshot: PaymentSnapshot, question: Question, answers: Record<string, unknown>, hidden: Record<string, string>): AmountOutcome {
  const ctx = { answers, hidden };
  const path = visiblePath(snapshot.questions, snapshot.start_logic_jumps, ctx);
  const at = path.indexOf(question.id);
  if (at < 0) return { ok: false, reason: 'payment_not_on_path', message: "The respondent's answers do not lead to this payment question" };
  const currency = String(question.properties.currency ?? '').toLowerCase();
  let major: number;
  const variable = question.properties.amount_variable;
  if (typeof variable === 'string' && variable) {
    const vars = computeVariables(snapshot.questions, snapshot.start_logic_jumps, ctx, snapshot.variables ?? {}, new Set(path.slice(0, at)));
    major = typeof vars[variable] === 'number' ? (vars[variable] as number) : Number(vars[variable]);
  } else {
    major = Number(question.properties.amount);
  }
  const amount = Number.isFinite(major) ? minorUnits(major, currency) : NaN;
  if (!Number.isInteger(amount) || amount < 1 || !currency) {
    return { ok: false, reason: 'payment_amount_invalid', message: 'The amount to pay, computed from the answers, is not a positive amount' };
  }
  return { ok: true, amount, currency };
}
