import type { BookingCallRecord, BookingEventRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, optStr, str, text } from './columns';

/* Confirmation calls of bookings and the bookings' audit trail (docs/booking.md, "Confirmation calls"). The
 * booking id is the call's primary key: one call per booking, whatever retries or instances do. An event's
 * (booking_id, key) is unique: a duplicate callback adds nothing. `key` is an SQL word, so the column is event_key. */

export type BookingCallRow = BookingCallRecord;

export const BookingCallEntity = new EntitySchema<BookingCallRow>({
  name: 'FormloomBookingCall',
  tableName: 'booking_calls',
  columns: {
    booking_id: id, owner_id: str, form_id: str, state: str, outcome: optStr, reason: optStr, to_number: str, call_id: optStr,
    generation_id: optStr, audio_token_hash: optStr, audio_expires_at: optStr, created_at: str, updated_at: str,
  },
  indices: [
    { name: 'IDX_booking_calls_call', columns: ['call_id'] },
    { name: 'IDX_booking_calls_audio', columns: ['audio_token_hash'] },
  ],
});

export type BookingEventRow = Omit<BookingEventRecord, 'key' | 'detail'> & { event_key: string; detail: string };

export const BookingEventEntity = new EntitySchema<BookingEventRow>({
  name: 'FormloomBookingEvent',
  tableName: 'booking_events',
  columns: { id, booking_id: str, event_key: str, kind: str, detail: text, at: str },
  indices: [{ name: 'UQ_booking_events_key', columns: ['booking_id', 'event_key'], unique: true }],
});

export const bookingEventFromRow = ({ event_key, detail, ...r }: BookingEventRow): BookingEventRecord => ({ ...r, key: event_key, detail: JSON.parse(detail) as Record<string, unknown> });
