import { inject, injectable } from 'tsyringe';
import type { OutboxItem } from '../domain/types';
import { errorText, failedAttempt } from '../outbox/retry';
import { CalendarError } from '../ports/calendar';
import type { Clock } from '../ports/clock';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { CalendarConnections } from './calendar-connections';
import { bookingEventOf } from './booking-details';

/** The outbox kind that writes a booking into its owner's calendar, or takes it out. */
export const BOOKING_CALENDAR_JOB = 'booking.calendar';

/**
 * Writes bookings into owners' calendars through the outbox (docs/booking.md, "Calendar events"): durable across
 * restarts, retried on the outbox's schedule while the calendar server is away. The event's uid is the booking's
 * id, so a retried write replaces rather than adds. The item says what to do; the booking's state decides: a
 * booking cancelled before its write ran is taken out instead.
 */
@injectable()
export class BookingCalendarSync implements OutboxHandler {
  readonly kind = BOOKING_CALENDAR_JOB;

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(CalendarConnections) private readonly connections: CalendarConnections,
  ) {}

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    const booking = await this.storage.bookings.findById(String(item.payload.booking_id));
    if (!booking) return { status: 'failed', error: 'The booking no longer exists' };
    const calendar = await this.connections.calendarFor(booking.owner_id);
    if (!calendar) return { status: 'failed', error: "The owner's calendar is no longer connected" };
    try {
      if (booking.status === 'confirmed' && item.payload.action !== 'delete') await calendar.putEvent(await bookingEventOf(this.storage, booking));
      else await calendar.deleteEvent(booking.id);
      return { status: 'delivered' };
    } catch (e) {
      // A wrong password stays wrong until the owner reconnects: still retried, as the owner may fix it within the day.
      return failedAttempt(this.clock.now(), item.attempts, e instanceof CalendarError ? `${e.code}: ${e.message}` : errorText(e));
    }
  }
}
