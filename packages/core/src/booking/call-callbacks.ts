import { inject, injectable } from 'tsyringe';
import { apiBase, type FormloomConfig } from '../config';
import { FormloomError } from '../errors';
import { sha256Hex } from '../hashing';
import { newOutboxItem } from '../outbox/outbox-items';
import { openBlobStream, type BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { BookingCallRecord, Storage } from '../ports/storage';
import { TelephonySignatureError, type CallStatus, type Telephony } from '../ports/telephony';
import { TOKENS } from '../tokens';
import { formatKey } from '../voice/synthesis';
import { BookingMails } from './booking-mails';
import { callPaths } from './call-paths';
import { BOOKING_CALENDAR_JOB } from './calendar-sync';
import { ConfirmationCalls } from './confirmation-calls';

/** Final statuses of a call and the outcome each gives when no digit decided it. */
const FINAL: Partial<Record<CallStatus, 'no_answer' | 'failed'>> = { completed: 'no_answer', busy: 'no_answer', no_answer: 'no_answer', failed: 'failed', canceled: 'failed' };

const notFound = () => new FormloomError('NOT_FOUND', 'Call not found');

/**
 * The provider's side of a confirmation call (docs/booking.md, "Confirmation calls"): the prompt's audio at its
 * token's URL, and the keypad and status callbacks, each verified by the adapter (Twilio: the SDK's
 * `validateRequest` over the exact public URL; 403 otherwise) and idempotent: the outcome is set once and each
 * event enters the booking's trail once, so a repeated callback changes nothing. Pressing 2 cancels the booking
 * as its mails' cancel link does (slot freed, calendar event removed through the outbox, cancellation mailed).
 */
@injectable()
export class CallCallbacks {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.Telephony) private readonly telephony: Telephony,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(ConfirmationCalls) private readonly calls: ConfirmationCalls,
    @inject(BookingMails) private readonly mails: BookingMails,
  ) {}

  /** The prompt's audio while its token is valid (30 minutes from the call); 404 otherwise, as for a wrong token. */
  async audio(token: string) {
    const call = token ? await this.storage.bookingCalls.findByAudioToken(sha256Hex(token)) : null;
    if (!call?.generation_id || !call.audio_expires_at || Date.parse(call.audio_expires_at) <= this.clock.now().getTime()) throw new FormloomError('NOT_FOUND', 'Audio not found');
    const blob = await openBlobStream(this.blobs, formatKey(call.generation_id, 'wav'));
    if (!blob) throw new FormloomError('NOT_FOUND', 'Audio not found');
    return { contentType: 'audio/wav', stream: blob.body, headers: { 'Cache-Control': 'no-store', 'Content-Length': String(blob.size) } };
  }

  /** Verifies a callback of booking `bookingId`'s call; its params from the form-encoded body. */
  private async verified(bookingId: string, which: 'keypad' | 'status', raw: Uint8Array | undefined, signature: string | undefined) {
    if (this.telephony.id === 'none') throw new FormloomError('CONFLICT', 'No telephony is configured on this server', { reason: 'telephony_not_configured' });
    const params = Object.fromEntries(new URLSearchParams(Buffer.from(raw ?? new Uint8Array()).toString('utf8')));
    const url = callPaths(apiBase(this.config), bookingId)[which];
    let parsed;
    try {
      parsed = this.telephony.parseCallback(url, params, signature);
    } catch (e) {
      if (e instanceof TelephonySignatureError) throw new FormloomError('FORBIDDEN', 'The callback is not signed by the telephony provider', { reason: 'invalid_signature' });
      throw e;
    }
    const call = await this.storage.bookingCalls.findByBooking(bookingId);
    if (!call || !call.call_id || call.call_id !== parsed.callId) throw notFound();
    return { call, parsed };
  }

  /** The digit pressed: 1 confirms, 2 cancels the booking; the answer plays nothing more and hangs up. */
  async keypad(bookingId: string, raw: Uint8Array | undefined, signature: string | undefined) {
    const { call, parsed } = await this.verified(bookingId, 'keypad', raw, signature);
    const digit = (parsed.digits ?? '').slice(0, 1);
    await this.storage.transaction(async (tx) => {
      await this.calls.trail(tx, bookingId, `call.keypad.${digit || 'none'}`, 'keypad', { digit: digit || null, call_id: call.call_id });
      if (digit === '1') await this.calls.settle(tx, bookingId, 'confirmed', null);
      if (digit === '2' && (await this.calls.settle(tx, bookingId, 'cancelled', null))) await this.cancelBooking(tx, call);
    });
    const answer = this.telephony.closingAnswer(null);
    return { contentType: answer.contentType, stream: [answer.body] };
  }

  private async cancelBooking(tx: Storage, call: BookingCallRecord) {
    const b = await tx.bookings.findById(call.booking_id);
    const now = this.clock.now().toISOString();
    if (!b || b.status !== 'confirmed' || Date.parse(b.start) <= this.clock.now().getTime() || !(await tx.bookings.cancel(b.id, now))) {
      await this.calls.trail(tx, call.booking_id, 'booking.cancel_refused', 'booking_cancel_refused', { status: b?.status ?? null });
      return;
    }
    await tx.outbox.enqueue(newOutboxItem(this.ids, now, BOOKING_CALENDAR_JOB, { booking_id: b.id, action: 'delete' }));
    await this.mails.queue(tx, { ...b, status: 'cancelled' }, null, 'cancelled');
    await this.calls.trail(tx, b.id, 'booking.cancelled', 'booking_cancelled', { by: 'keypad' });
  }

  /** A status change: a final one without a decisive digit settles the outcome (no answer, or failed). */
  async status(bookingId: string, raw: Uint8Array | undefined, signature: string | undefined) {
    const { call, parsed } = await this.verified(bookingId, 'status', raw, signature);
    const status = parsed.status;
    if (status) {
      await this.storage.transaction(async (tx) => {
        await this.calls.trail(tx, bookingId, `call.status.${status}`, 'call_status', { status, call_id: call.call_id });
        const outcome = FINAL[status];
        if (outcome) await this.calls.settle(tx, bookingId, outcome, outcome === 'failed' ? `call_${status}` : status === 'completed' ? 'no_choice' : status);
      });
    }
    return { body: { received: true as const } };
  }
}
