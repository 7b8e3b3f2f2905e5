import type { BookingCallOutcome, BookingCallRecord, BookingCallRepository, BookingCallState, BookingEventRecord } from '@formloom/core';
import { BookingCallEntity, BookingEventEntity, bookingEventFromRow, type BookingEventRow } from '../tables/booking-calls';
import { columnsOf } from '../tables/columns';
import type { Scope } from '../scope';
import type { Dialect } from '../sql/dialect';
import { tableOf } from '../sql/statements';

const PATCHABLE = ['state', 'outcome', 'reason', 'to_number', 'call_id', 'generation_id', 'audio_token_hash', 'audio_expires_at', 'updated_at'] as const;

const statements = (d: Dialect) => {
  const calls = tableOf(d, BookingCallEntity);
  const events = tableOf(d, BookingEventEntity);
  const callCols = columnsOf(BookingCallEntity);
  const eventCols = columnsOf(BookingEventEntity);
  const values = (n: number) => Array.from({ length: n }, (_, i) => d.p(i + 1)).join(', ');
  return {
    calls,
    insert: `INSERT INTO ${calls} (${callCols.join(', ')}) VALUES (${values(callCols.length)}) ON CONFLICT (booking_id) DO NOTHING`,
    byBooking: `SELECT * FROM ${calls} WHERE booking_id = ${d.p(1)}`,
    byCall: `SELECT * FROM ${calls} WHERE call_id = ${d.p(1)}`,
    byAudio: `SELECT * FROM ${calls} WHERE audio_token_hash = ${d.p(1)}`,
    settle: `UPDATE ${calls} SET state = 'done', outcome = ${d.p(1)}, reason = ${d.p(2)}, updated_at = ${d.p(3)} WHERE booking_id = ${d.p(4)} AND outcome IS NULL`,
    addEvent: `INSERT INTO ${events} (${eventCols.join(', ')}) VALUES (${values(eventCols.length)}) ON CONFLICT (booking_id, event_key) DO NOTHING`,
    events: `SELECT * FROM ${events} WHERE booking_id = ${d.p(1)} ORDER BY at, id`,
  };
};

/** Confirmation calls and bookings' audit trails (docs/booking.md, "Confirmation calls"). */
export class SqlBookingCallRepository implements BookingCallRepository {
  constructor(private readonly scope: Scope) {}

  private get st() {
    return this.scope.statements(statements);
  }

  async insert(call: BookingCallRecord): Promise<boolean> {
    return (await this.scope.db.run(this.st.insert, columnsOf(BookingCallEntity).map((c) => call[c as keyof BookingCallRecord]))) > 0;
  }

  private async one(sql: string, v: string): Promise<BookingCallRecord | null> {
    const [row] = await this.scope.db.all<BookingCallRecord>(sql, [v]);
    return row ?? null;
  }

  findByBooking(bookingId: string) {
    return this.one(this.st.byBooking, bookingId);
  }

  findByCallId(callId: string) {
    return this.one(this.st.byCall, callId);
  }

  findByAudioToken(tokenHash: string) {
    return this.one(this.st.byAudio, tokenHash);
  }

  async advance(bookingId: string, from: BookingCallState, patch: Partial<BookingCallRecord> & { updated_at: string }): Promise<boolean> {
    const d = this.scope.d;
    const keys = PATCHABLE.filter((k) => k in patch);
    const sets = keys.map((k, i) => `${k} = ${d.p(i + 1)}`).join(', ');
    const sql = `UPDATE ${this.st.calls} SET ${sets} WHERE booking_id = ${d.p(keys.length + 1)} AND state = ${d.p(keys.length + 2)}`;
    return (await this.scope.db.run(sql, [...keys.map((k) => patch[k] ?? null), bookingId, from])) > 0;
  }

  async settle(bookingId: string, outcome: BookingCallOutcome, reason: string | null, at: string): Promise<boolean> {
    return (await this.scope.db.run(this.st.settle, [outcome, reason, at, bookingId])) > 0;
  }

  async addEvent(e: BookingEventRecord): Promise<boolean> {
    const row: BookingEventRow = { id: e.id, booking_id: e.booking_id, event_key: e.key, kind: e.kind, detail: JSON.stringify(e.detail), at: e.at };
    return (await this.scope.db.run(this.st.addEvent, columnsOf(BookingEventEntity).map((c) => row[c as keyof BookingEventRow]))) > 0;
  }

  async events(bookingId: string): Promise<BookingEventRecord[]> {
    return (await this.scope.db.all<BookingEventRow>(this.st.events, [bookingId])).map(bookingEventFromRow);
  }

  async forBookings(ids: readonly string[]): Promise<BookingCallRecord[]> {
    const out: BookingCallRecord[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const slice = ids.slice(i, i + 500);
      const sql = `SELECT * FROM ${this.st.calls} WHERE booking_id IN (${slice.map((_, j) => this.scope.d.p(j + 1)).join(', ')})`;
      out.push(...(await this.scope.db.all<BookingCallRecord>(sql, slice)));
    }
    return out;
  }
}
