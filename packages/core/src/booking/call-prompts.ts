import type { Question } from '../domain/types';
import { creditsFor, spokenCharacters } from '../voice/pricing';

/**
 * What a confirmation call says (docs/booking.md, "Confirmation calls"), in the form's language among the 12 the
 * respondent's page speaks (English for others, and when the server has no voice for it), and the number it
 * calls: an answer of the phone field the booking question names (`confirmation_call_question`: a contact-info
 * question with a phone field).
 */

const WORDS: Record<string, (title: string, when: string) => string> = {
  en: (t, w) => `Hello. This call is about your booking for ${t}, on ${w}. To confirm it, press 1. To cancel it, press 2.`,
  fr: (t, w) => `Bonjour. Cet appel concerne votre réservation pour ${t}, le ${w}. Pour la confirmer, tapez 1. Pour l'annuler, tapez 2.`,
  de: (t, w) => `Guten Tag. Dieser Anruf betrifft Ihre Buchung für ${t}, am ${w}. Zum Bestätigen drücken Sie 1. Zum Stornieren drücken Sie 2.`,
  es: (t, w) => `Hola. Esta llamada es sobre su reserva para ${t}, el ${w}. Para confirmarla, pulse 1. Para cancelarla, pulse 2.`,
  pt: (t, w) => `Olá. Esta chamada é sobre a sua reserva para ${t}, ${w}. Para a confirmar, prima 1. Para a cancelar, prima 2.`,
  it: (t, w) => `Buongiorno. Questa chiamata riguarda la sua prenotazione per ${t}, ${w}. Per confermarla, prema 1. Per annullarla, prema 2.`,
  nl: (t, w) => `Hallo. Dit gesprek gaat over uw boeking voor ${t}, op ${w}. Druk op 1 om te bevestigen. Druk op 2 om te annuleren.`,
  pl: (t, w) => `Dzień dobry. Dzwonimy w sprawie rezerwacji ${t}, ${w}. Aby ją potwierdzić, naciśnij 1. Aby ją anulować, naciśnij 2.`,
  ja: (t, w) => `こんにちは。${t}のご予約、${w}についてのお電話です。確定するには1を、キャンセルするには2を押してください。`,
  zh: (t, w) => `您好。这是关于您${w}的${t}预约的电话。确认请按1，取消请按2。`,
  ar: (t, w) => `مرحبًا. هذه المكالمة بخصوص حجزك لـ ${t}، ${w}. للتأكيد اضغط 1. للإلغاء اضغط 2.`,
  he: (t, w) => `שלום. השיחה הזו היא לגבי ההזמנה שלך ל${t}, ${w}. לאישור הקישו 1. לביטול הקישו 2.`,
};

/** The language the call speaks: the form's when Formloom has its words, else English. */
export const callLanguage = (formLanguage: unknown): string => {
  const base = String(formLanguage ?? 'en').toLowerCase().split(/[-_]/)[0]!;
  return base in WORDS ? base : 'en';
};

/** The prompt for a booking at `start`, told in the respondent's zone. */
export function callPrompt(language: string, formTitle: string, start: string, timezone: string): string {
  const lang = callLanguage(language);
  const when = new Intl.DateTimeFormat(lang, { weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit', timeZone: timezone }).format(new Date(start));
  return WORDS[lang]!(formTitle.trim().slice(0, 120) || 'your appointment', when);
}

/**
 * The credits one call costs, as quoted in the builder and checked at publish: the prompt for the longest date
 * the language writes (a Wednesday in September at 12:30), or the English one when longer (the call speaks
 * English when the server has no voice for the language), so a real call costs at most this.
 */
export function callCredits(language: string, formTitle: string): number {
  const cost = (lang: string) => creditsFor(spokenCharacters(callPrompt(lang, formTitle, '2026-09-30T12:30:00Z', 'UTC')));
  return Math.max(cost(callLanguage(language)), cost('en'));
}

/** The contact-info question a booking question names for its confirmation call, when it is one with a phone field. */
export function phoneQuestionOf(booking: Question, questions: readonly Question[]): Question | null {
  const id = booking.properties.confirmation_call_question;
  const q = typeof id === 'string' ? questions.find((x) => x.id === id) : undefined;
  if (!q || q.type !== 'contact_info') return null;
  const fields = (q.properties.fields as string[] | undefined) ?? ['first_name', 'last_name', 'email', 'phone', 'company'];
  return fields.includes('phone') ? q : null;
}

/**
 * An international number (E.164) from what the respondent typed: spaces, dots, dashes and brackets dropped, a
 * leading 00 read as +. Null when it is not one: numbers without their country code cannot be called.
 */
export function e164(typed: unknown): string | null {
  if (typeof typed !== 'string') return null;
  let n = typed.trim().replace(/[\s().-]/g, '');
  if (n.startsWith('00')) n = `+${n.slice(2)}`;
  return /^\+[1-9]\d{6,14}$/.test(n) ? n : null;
}

/** The phone answer of `question` among `answers`, as E.164, else null. */
export function phoneAnswer(question: Question, answers: ReadonlyArray<{ question_id: string; value: unknown }>): string | null {
  const value = answers.find((a) => a.question_id === question.id)?.value;
  return value && typeof value === 'object' ? e164((value as Record<string, unknown>).phone) : null;
}
