import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { BookingCallRecord, BookingRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';

export const confirmationCallOut = z
  .object({
    state: z.enum(['pending', 'placing', 'calling', 'done']),
    outcome: z.enum(['confirmed', 'cancelled', 'no_answer', 'failed']).nullable().describe('null while the call is under way'),
    reason: z.string().nullable().describe('why it failed or had no choice: invalid_number, insufficient_credits, provider_refused, call_state_unknown, no_choice, busy, ...'),
    updated_at: z.string(),
  })
  .describe("The booking's confirmation call (docs/booking.md, \"Confirmation calls\")");

export const bookingSummaryOut = z.object({
  id: z.string(),
  question_id: z.string(),
  status: z.enum(['held', 'confirmed', 'cancelled', 'expired']),
  start: z.string(),
  end: z.string(),
  timezone: z.string(),
  confirmation_call: confirmationCallOut.nullable(),
  trail: z.array(z.object({ kind: z.string(), at: z.string(), detail: z.record(z.string(), z.unknown()) })).describe('What happened to the booking, oldest first'),
});
export const bookingsOut = z.object({ bookings: z.array(bookingSummaryOut) });

/** A call as the API shows it: never the number, the token or the provider's id. */
export const presentCall = (c: BookingCallRecord) => ({ state: c.state, outcome: c.outcome, reason: c.reason, updated_at: c.updated_at });

/** A response's bookings with their call and trail (docs/booking.md, "Confirmation calls"). */
@injectable()
export class BookingTrails {
  constructor(@inject(TOKENS.Storage) private readonly storage: Storage) {}

  async forResponse(formId: string, responseId: string) {
    const all = (await this.storage.bookings.forResponsesAnyState([responseId])).filter((b) => b.form_id === formId);
    const calls = new Map((await this.storage.bookingCalls.forBookings(all.map((b) => b.id))).map((c) => [c.booking_id, c]));
    const bookings = [];
    for (const b of all) bookings.push(await this.present(b, calls.get(b.id) ?? null));
    return { bookings };
  }

  private async present(b: BookingRecord, call: BookingCallRecord | null) {
    const trail = (await this.storage.bookingCalls.events(b.id)).map((e) => ({ kind: e.kind, at: e.at, detail: e.detail }));
    return { id: b.id, question_id: b.question_id, status: b.status, start: b.start, end: b.end, timezone: b.timezone, confirmation_call: call ? presentCall(call) : null, trail };
  }

  /** The calls of these bookings, by booking id (results and webhooks). */
  async callsOf(bookingIds: readonly string[]): Promise<Map<string, ReturnType<typeof presentCall>>> {
    return new Map((await this.storage.bookingCalls.forBookings(bookingIds)).map((c) => [c.booking_id, presentCall(c)]));
  }
}
