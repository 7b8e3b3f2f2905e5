import type { BookingRecord, CalendarConnectionRecord } from '@formloom/core';
import { EntitySchema } from 'typeorm';
import { id, optStr, str } from './columns';

/* Bookings (docs/booking.md): booked and held slots, the 5-minute cells each takes in its owner's calendar (the
 * primary key that makes two overlapping bookings impossible), and owners' calendar connections. `start` and
 * `end` are SQL words, so the columns are starts_at and ends_at. */

export type BookingRow = Omit<BookingRecord, 'start' | 'end'> & { starts_at: string; ends_at: string };

export const BookingEntity = new EntitySchema<BookingRow>({
  name: 'FormloomBooking',
  tableName: 'bookings',
  columns: {
    id, owner_id: str, form_id: str, question_id: str, response_id: optStr, status: str, starts_at: str, ends_at: str, timezone: str,
    held_until: optStr, manage_token_hash: optStr, rescheduled_from: optStr, created_at: str, updated_at: str,
  },
  indices: [
    { name: 'IDX_bookings_owner_time', columns: ['owner_id', 'starts_at'] },
    { name: 'IDX_bookings_response', columns: ['response_id'] },
  ],
});

export const bookingFromRow = ({ starts_at, ends_at, ...r }: BookingRow): BookingRecord => ({ ...r, start: starts_at, end: ends_at });
export const bookingToRow = ({ start, end, ...r }: BookingRecord): BookingRow => ({ ...r, starts_at: start, ends_at: end });

export interface BookingCellRow {
  owner_id: string;
  /** Minutes since the epoch, a multiple of BOOKING_CELL_MINUTES. */
  cell: number;
  booking_id: string;
}

export const BookingCellEntity = new EntitySchema<BookingCellRow>({
  name: 'FormloomBookingCell',
  tableName: 'booking_cells',
  columns: { owner_id: { type: 'varchar', primary: true }, cell: { type: 'integer', primary: true }, booking_id: str },
  indices: [{ name: 'IDX_booking_cells_booking', columns: ['booking_id'] }],
});

export type CalendarConnectionRow = CalendarConnectionRecord;

export const CalendarConnectionEntity = new EntitySchema<CalendarConnectionRow>({
  name: 'FormloomCalendarConnection',
  tableName: 'calendar_connections',
  columns: { user_id: id, url: str, username: str, password_sealed: str, calendar_url: str, calendar_name: optStr, created_at: str, updated_at: str },
});

