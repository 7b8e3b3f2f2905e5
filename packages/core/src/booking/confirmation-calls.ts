import { inject, injectable } from 'tsyringe';
import { apiBase, type FormloomConfig } from '../config';
import type { KeyScope, OutboxItem, Question } from '../domain/types';
import { FormloomError, isFormloomError } from '../errors';
import { sha256Hex } from '../hashing';
import type { Logger } from '../logger';
import { newOutboxItem } from '../outbox/outbox-items';
import { errorText, failedAttempt } from '../outbox/retry';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { BookingCallOutcome, BookingCallRecord, BookingRecord, Storage } from '../ports/storage';
import { TelephonyError, type Telephony } from '../ports/telephony';
import { TOKENS } from '../tokens';
import { VoiceCatalog } from '../voice/catalog';
import { VoiceFailure, VoiceService } from '../voice/voice-service';
import { BookingMails } from './booking-mails';
import { callLanguage, callPrompt, phoneAnswer, phoneQuestionOf } from './call-prompts';
import { BOOKING_CALL_JOB, callPaths } from './call-paths';
import { BOOKING_CALL_WEBHOOK_JOB } from './call-webhooks';

/** How long the prompt's audio URL works after the call is placed (Twilio fetches it when the callee answers). */
export const CALL_AUDIO_MINUTES = 30;

/**
 * Confirmation calls of bookings (docs/booking.md, "Confirmation calls"). Queued with the booking (one row per
 * booking, its id the key: never two calls), placed by the outbox: the prompt spoken by Formloom's own speech
 * engine in the form's language and charged once to the owner's credits (the generation's id is recorded before
 * the charge, so a retry reuses it), its audio at an unguessable URL that works for 30 minutes, then the call.
 * The call is marked `placing` before the provider is asked: a crash there leaves it `placing`, which a retry
 * settles as failed (`call_state_unknown`) rather than ring the respondent twice.
 */
@injectable()
export class ConfirmationCalls implements OutboxHandler {
  readonly kind = BOOKING_CALL_JOB;

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.Telephony) private readonly telephony: Telephony,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(VoiceService) private readonly voice: VoiceService,
    @inject(VoiceCatalog) private readonly catalog: VoiceCatalog,
    @inject(BookingMails) private readonly mails: BookingMails,
  ) {}

  /** Whether this instance can place calls: a telephony adapter and a number to call from. */
  get configured(): boolean {
    return this.telephony.id !== 'none' && !!this.telephony.from;
  }

  private now() {
    return this.clock.now().toISOString();
  }

  /** Records `kind` in the booking's trail once per `key`. */
  async trail(tx: Storage, bookingId: string, key: string, kind: string, detail: Record<string, unknown> = {}): Promise<boolean> {
    return tx.bookingCalls.addEvent({ id: this.ids.id('bev'), booking_id: bookingId, key, kind, detail, at: this.now() });
  }

  /** In the response's transaction: queues the call of a booking just confirmed, when its question asks for one. */
  async queue(tx: Storage, booking: BookingRecord, question: Question, questions: readonly Question[], answers: ReadonlyArray<{ question_id: string; value: unknown }>): Promise<void> {
    await this.trail(tx, booking.id, 'booking.confirmed', 'booking_confirmed', { response_id: booking.response_id });
    if (question.properties.confirmation_call !== true) return;
    const phoneQ = phoneQuestionOf(question, questions);
    const to = phoneQ ? phoneAnswer(phoneQ, answers) : null;
    const now = this.now();
    const call: BookingCallRecord = {
      booking_id: booking.id, owner_id: booking.owner_id, form_id: booking.form_id, state: to ? 'pending' : 'done', outcome: to ? null : 'failed',
      reason: to ? null : 'invalid_number', to_number: to ?? '', call_id: null, generation_id: null, audio_token_hash: null, audio_expires_at: null,
      created_at: now, updated_at: now,
    };
    if (!(await tx.bookingCalls.insert(call))) return;
    if (!to) {
      await this.trail(tx, booking.id, 'call.outcome', 'call_outcome', { outcome: 'failed', reason: 'invalid_number' });
      return;
    }
    await this.trail(tx, booking.id, 'call.queued', 'call_queued', {});
    await tx.outbox.enqueue(newOutboxItem(this.ids, now, BOOKING_CALL_JOB, { booking_id: booking.id }));
  }

  /** Sets the outcome once, with its trail entry; false when the call already had one. */
  async settle(tx: Storage, bookingId: string, outcome: BookingCallOutcome, reason: string | null, detail: Record<string, unknown> = {}): Promise<boolean> {
    if (!(await tx.bookingCalls.settle(bookingId, outcome, reason, this.now()))) return false;
    await this.trail(tx, bookingId, 'call.outcome', 'call_outcome', { outcome, reason, ...detail });
    await tx.outbox.enqueue(newOutboxItem(this.ids, this.now(), BOOKING_CALL_WEBHOOK_JOB, { booking_id: bookingId }));
    return true;
  }

  private async fail(bookingId: string, reason: string, detail: Record<string, unknown> = {}): Promise<OutboxOutcome> {
    await this.storage.transaction((tx) => this.settle(tx, bookingId, 'failed', reason, detail));
    return { status: 'delivered' };
  }

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const bookingId = String(item.payload.booking_id);
    const call = await this.storage.bookingCalls.findByBooking(bookingId);
    if (!call || call.state === 'done' || call.state === 'calling') return { status: 'delivered' };
    if (call.state === 'placing') return this.fail(bookingId, 'call_state_unknown');
    const booking = await this.storage.bookings.findById(bookingId);
    if (!booking || booking.status !== 'confirmed') return this.fail(bookingId, 'booking_not_confirmed');
    if (!this.configured) return this.fail(bookingId, 'telephony_not_configured');

    const audio = await this.prompt(call, booking, item.attempts);
    if ('outcome' in audio) return audio.outcome;

    const token = this.ids.secret(24);
    const expires = new Date(this.clock.now().getTime() + CALL_AUDIO_MINUTES * 60_000).toISOString();
    const claimed = await this.storage.bookingCalls.advance(bookingId, 'pending', {
      state: 'placing', generation_id: audio.generationId, audio_token_hash: sha256Hex(token), audio_expires_at: expires, updated_at: this.now(),
    });
    if (!claimed) return { status: 'delivered' }; // another worker has it
    const paths = callPaths(apiBase(this.config), bookingId);
    try {
      const placed = await this.telephony.placeCall({ to: call.to_number, from: this.telephony.from!, audioUrl: paths.audio(token), keypadUrl: paths.keypad, statusUrl: paths.status });
      await this.storage.transaction(async (tx) => {
        await tx.bookingCalls.advance(bookingId, 'placing', { state: 'calling', call_id: placed.id, updated_at: this.now() });
        await this.trail(tx, bookingId, 'call.placed', 'call_placed', { call_id: placed.id, to: maskNumber(call.to_number) });
      });
      return { status: 'delivered' };
    } catch (e) {
      if (e instanceof TelephonyError && (e.status >= 500 || e.status === 429)) {
        // The provider answered that it did not take the call: safe to try again later.
        await this.storage.bookingCalls.advance(bookingId, 'placing', { state: 'pending', updated_at: this.now() });
        return failedAttempt(this.clock.now(), item.attempts, `${e.status}: ${e.message}`);
      }
      if (e instanceof TelephonyError) return this.fail(bookingId, 'provider_refused', { message: e.message, code: e.code });
      // No answer from the provider: the call may have been placed. Never risk a second one.
      this.logger.error('confirmation call: provider unreachable', { booking_id: bookingId, error: errorText(e) });
      return this.fail(bookingId, 'call_state_unknown', { message: errorText(e) });
    }
  }

  /**
   * The prompt's audio: the recorded generation when it is ready (a retry), else a new one charged to the owner
   * (its id recorded first). A failed engine is retried; no credits or voice off settles the call as failed.
   */
  private async prompt(call: BookingCallRecord, booking: BookingRecord, attempt: number): Promise<{ generationId: string } | { outcome: OutboxOutcome }> {
    if (call.generation_id) {
      const g = await this.storage.voiceGenerations.findById(call.generation_id);
      if (g?.status === 'ready') return { generationId: g.id };
    }
    const form = await this.storage.forms.findById(booking.form_id);
    if (!form) return { outcome: await this.fail(booking.id, 'form_deleted') };
    // The form's language when a stock voice speaks it, else English (never a voice reading another language).
    let language = callLanguage(form.options.language);
    let voices = await this.catalog.list({ source: 'stock', language });
    if (!voices.length && language !== 'en') {
      language = 'en';
      voices = await this.catalog.list({ source: 'stock', language: 'en' });
    }
    const voice = voices[0] ?? (await this.catalog.list({ source: 'stock' }))[0];
    if (!voice) return { outcome: await this.fail(booking.id, 'no_voice') };
    const generationId = this.ids.id('gen');
    await this.storage.bookingCalls.advance(booking.id, 'pending', { generation_id: generationId, updated_at: this.now() });
    const principal = { user_id: booking.owner_id, key_id: null, scope: 'voice' as KeyScope };
    try {
      await this.voice.speak(principal, { voice: voice.id, text: callPrompt(language, form.title, booking.start, booking.timezone), format: 'wav', quality: 'phone', language, reuse: false, save: false, title: `Confirmation call: ${form.title}`.slice(0, 200) } as never, { generationId });
      await this.storage.transaction((tx) => this.trail(tx, booking.id, 'call.prompt', 'call_prompt', { generation_id: generationId, language }));
      return { generationId };
    } catch (e) {
      const err = e instanceof VoiceFailure ? e.error : isFormloomError(e) ? e : null;
      if (err && (err.code === 'INSUFFICIENT_CREDITS' || (err as FormloomError).details?.reason === 'voice_not_enabled')) {
        return { outcome: await this.fail(booking.id, err.code === 'INSUFFICIENT_CREDITS' ? 'insufficient_credits' : 'voice_not_enabled') };
      }
      return { outcome: failedAttempt(this.clock.now(), attempt, `speech: ${errorText(err ?? e)}`) };
    }
  }
}

/** The number as the trail shows it: its last three digits. */
const maskNumber = (n: string) => `${'*'.repeat(Math.max(0, n.length - 3))}${n.slice(-3)}`;
