/**
 * Calendars (docs/booking.md): an owner's own calendar, read for busy times and written with booked events.
 * Each owner connects their own (CalDAV URL, user name, password, sealed at rest by the booking area), so the
 * port is a factory: `Calendars.connect(connection)` gives a `Calendar` for one connection. Conformance suite:
 * `calendarConformance` in `@formloom/core/testing`; adapter: `@formloom/calendar-caldav` (tsdav).
 */

/** Where an owner's calendar is and how to sign in to it. `url` is a CalDAV server, principal or calendar URL. */
export interface CalendarConnection {
  url: string;
  username: string;
  password: string;
}

/** A time range, ISO 8601 in UTC (`2026-12-07T09:00:00.000Z`); `start` inclusive, `end` exclusive. */
export interface TimeRange {
  start: string;
  end: string;
}

/** An event Formloom writes for a booking. `uid` is Formloom's (the booking's), so a retried write is the same event. */
export interface CalendarEvent {
  uid: string;
  start: string;
  end: string;
  summary: string;
  description?: string;
  /** Attendees' addresses (the respondent). */
  attendees?: Array<{ email: string; name?: string }>;
  /** The organizer (the owner). */
  organizer?: { email: string; name?: string };
}

/** What a connection test found: the calendar the events go to. */
export interface CalendarInfo {
  /** The calendar collection's URL. */
  url: string;
  /** Its display name, or null. */
  name: string | null;
}

/** Why a calendar call failed, in words an owner can act on (the message is safe to show them). */
export type CalendarErrorCode = 'not_configured' | 'unauthorized' | 'not_found' | 'unreachable' | 'refused';

export class CalendarError extends Error {
  override readonly name = 'CalendarError';
  constructor(readonly code: CalendarErrorCode, message: string) {
    super(message);
  }
}

/** One connected calendar. Every method rejects with CalendarError on failure. */
export interface Calendar {
  /** Signs in and finds the calendar events go to. */
  test(): Promise<CalendarInfo>;
  /** The busy intervals that overlap `range` (transparent events are free), merged and sorted, clipped to it. */
  busyTimes(range: TimeRange): Promise<TimeRange[]>;
  /** Writes the event; writing one `uid` again replaces it (a retried write never makes two). */
  putEvent(event: CalendarEvent): Promise<void>;
  /** Removes the event; an event that is not there is not an error. */
  deleteEvent(uid: string): Promise<void>;
}

/** The calendar port: a client per connection. */
export interface Calendars {
  /** The adapter's name (`caldav`), or `none` when no adapter is configured. */
  readonly id: string;
  connect(connection: CalendarConnection): Calendar;
}

/** The instance without a calendar adapter: every connection is refused with a clear message. */
export const noCalendars = (): Calendars => ({
  id: 'none',
  connect: () => {
    const no = async (): Promise<never> => {
      throw new CalendarError('not_configured', 'No calendar adapter is configured on this server (docs/booking.md)');
    };
    return { test: no, busyTimes: no, putEvent: no, deleteEvent: no };
  },
});
