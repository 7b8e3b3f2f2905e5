/**
 * Confirmation calls of bookings (docs/booking.md, "Confirmation calls"): one call per booking at most (the
 * booking id is the primary key), its state and outcome, and the booking's audit trail (one row per event,
 * unique per booking and event key, so a duplicate callback records nothing twice).
 */

/**
 * `pending` until placed; `placing` while the provider is asked (left there by a crash: never called again);
 * `calling` once the provider took it; `done` with an outcome.
 */
export type BookingCallState = 'pending' | 'placing' | 'calling' | 'done';
/** What came of the call: confirmed (1), cancelled by keypad (2), no answer (or no choice), failed. */
export type BookingCallOutcome = 'confirmed' | 'cancelled' | 'no_answer' | 'failed';

export interface BookingCallRecord {
  booking_id: string;
  owner_id: string;
  form_id: string;
  state: BookingCallState;
  outcome: BookingCallOutcome | null;
  /** Why it failed (`invalid_number`, `insufficient_credits`, `provider_refused`, `call_state_unknown`, ...), else null. */
  reason: string | null;
  /** The number called, E.164. */
  to_number: string;
  /** The provider's call id once placed. */
  call_id: string | null;
  /** The voice generation that made the prompt (charged once to the owner). */
  generation_id: string | null;
  /** SHA-256 of the audio URL's token, and until when the audio is served. */
  audio_token_hash: string | null;
  audio_expires_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface BookingEventRecord {
  id: string;
  booking_id: string;
  /** Unique per booking: `call.queued`, `call.placed`, `call.keypad.1`, `call.status.completed`, `call.outcome`, ... */
  key: string;
  /** What happened, e.g. `call_placed`, `keypad`, `call_status`, `call_outcome`, `cancelled_by_keypad`. */
  kind: string;
  detail: Record<string, unknown>;
  at: string;
}

export interface BookingCallRepository {
  /** Inserts the call (state `pending`) once: false when the booking already has one. */
  insert(call: BookingCallRecord): Promise<boolean>;
  findByBooking(bookingId: string): Promise<BookingCallRecord | null>;
  findByCallId(callId: string): Promise<BookingCallRecord | null>;
  findByAudioToken(tokenHash: string): Promise<BookingCallRecord | null>;
  /** Moves the call from `from` to the patch (state and fields): true for exactly one caller. */
  advance(bookingId: string, from: BookingCallState, patch: Partial<Omit<BookingCallRecord, 'booking_id' | 'owner_id' | 'form_id' | 'created_at'>> & { updated_at: string }): Promise<boolean>;
  /** Sets the outcome once (state `done`): true for exactly one caller, false when it already had one. */
  settle(bookingId: string, outcome: BookingCallOutcome, reason: string | null, at: string): Promise<boolean>;
  /** Appends an event to the booking's trail: false (nothing written) when its key is already there. */
  addEvent(event: BookingEventRecord): Promise<boolean>;
  /** The booking's trail, oldest first. */
  events(bookingId: string): Promise<BookingEventRecord[]>;
  /** The calls of these bookings (any order). */
  forBookings(bookingIds: readonly string[]): Promise<BookingCallRecord[]>;
}
