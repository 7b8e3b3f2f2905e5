/**
 * Bookings (docs/booking.md): slots held and booked through booking questions, and owners' calendar
 * connections. "Never two bookings of one slot" is the database's: every booking takes the 5-minute cells of its
 * time in the owner's calendar, and a cell is a primary key (owner, cell), so two bookings that overlap in any
 * cell cannot both exist, whatever instance made them.
 */

/** `held` while the respondent finishes; `confirmed` with their response; `cancelled`; `expired` when a lapsed hold lost its cells. */
export type BookingStatus = 'held' | 'confirmed' | 'cancelled' | 'expired';

export interface BookingRecord {
  /** `bkg_...`; also the calendar event's uid. */
  id: string;
  /** Whose calendar the time is taken in (the form owner's user id): the scope of "one slot". */
  owner_id: string;
  form_id: string;
  question_id: string;
  /** The response it was confirmed with, else null. */
  response_id: string | null;
  status: BookingStatus;
  /** ISO 8601 in UTC; `end` exclusive. */
  start: string;
  end: string;
  /** The respondent's time zone (IANA), for the invitation and the mails. */
  timezone: string;
  /** Until when a `held` booking keeps its cells against others (after it, another hold may take them). */
  held_until: string | null;
  /** SHA-256 of the token in the cancel and reschedule links; null until confirmed. */
  manage_token_hash: string | null;
  /** The booking this one replaced (a reschedule), else null. */
  rescheduled_from: string | null;
  created_at: string;
  updated_at: string;
}

/** An owner's CalDAV connection; the password is sealed with the instance's secret box, never returned. */
export interface CalendarConnectionRecord {
  user_id: string;
  url: string;
  username: string;
  password_sealed: string;
  /** The calendar the events go to and its name, as the last connection test found them. */
  calendar_url: string;
  calendar_name: string | null;
  created_at: string;
  updated_at: string;
}

/** Length of a cell, in minutes: bookings take every cell their time touches. */
export const BOOKING_CELL_MINUTES = 5;

export interface BookingRepository {
  /**
   * Inserts `booking` (status `held` or `confirmed`) and takes its cells, in one transaction: the cells of
   * holds of the same owner that lapsed before `now` are released first (those holds become `expired`).
   * False, with nothing written, when any cell is taken; exactly one of concurrent callers for a cell wins,
   * across instances.
   */
  take(booking: BookingRecord, now: string): Promise<boolean>;
  findById(id: string): Promise<BookingRecord | null>;
  /**
   * A `held` booking (lapsed or not, as long as it kept its cells) becomes `confirmed` with the response and
   * the link token's hash: true for exactly one caller; false when it is not held.
   */
  confirm(id: string, patch: { response_id: string; manage_token_hash: string; updated_at: string }): Promise<boolean>;
  /** Cancels a held or confirmed booking and frees its cells: true once, false when it was neither. */
  cancel(id: string, at: string): Promise<boolean>;
  /** The owner's time taken in `range` (held before `now` lapsed or not yet, and confirmed), any order. */
  taken(ownerId: string, range: { start: string; end: string }, now: string): Promise<Array<{ start: string; end: string }>>;
  /** The bookings confirmed with these responses (any order). */
  forResponses(responseIds: readonly string[]): Promise<BookingRecord[]>;
  /** The bookings made with these responses, whatever their state now (cancelled ones too; any order). */
  forResponsesAnyState(responseIds: readonly string[]): Promise<BookingRecord[]>;

  putConnection(c: CalendarConnectionRecord): Promise<void>;
  connectionOf(userId: string): Promise<CalendarConnectionRecord | null>;
  /** True when there was one. */
  deleteConnection(userId: string): Promise<boolean>;
}
