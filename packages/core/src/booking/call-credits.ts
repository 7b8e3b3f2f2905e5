import type { FormRecord, PublishBlock, Question } from '../domain/types';
import type { Storage } from '../ports/storage';
import { callCredits, callLanguage } from './call-prompts';

/** The publish block when the owner's credits cannot pay one confirmation call: answered 402. */
export const CALL_CREDITS_REASON = 'booking_confirmation_credits_insufficient';

/**
 * How many calls the publish check covers (docs/decisions.md, Booking): one, the next booking's. The balance is
 * read again when each call's prompt is made; a call it cannot pay is recorded as failed (`insufficient_credits`).
 */
export const CALLS_COVERED_AT_PUBLISH = 1;

/** The credits one call of `form` costs (the quote the builder shows beside the setting). */
export const formCallCredits = (form: Pick<FormRecord, 'title' | 'options'>) => callCredits(callLanguage(form.options.language), form.title);

/** Publish check: the form owner's balance covers CALLS_COVERED_AT_PUBLISH calls, else a 402 block. */
export async function confirmationCallCredits(storage: Storage, form: FormRecord, questions: readonly Question[]): Promise<PublishBlock | null> {
  const per = formCallCredits(form);
  const required = per * CALLS_COVERED_AT_PUBLISH;
  const balance = await storage.credits.balance(form.owner_id);
  if (balance >= required) return null;
  const ids = questions.filter((q) => q.type === 'booking' && q.properties.confirmation_call === true).map((q) => q.id);
  return {
    reason: CALL_CREDITS_REASON,
    message: `A confirmation call costs ${per} voice credits and the form owner's balance is ${balance}: buy credits or turn the call off`,
    question_ids: ids,
    upgrade_required: false,
    credits_required: required,
    balance,
  } as PublishBlock;
}
