import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { SecretBox } from '../crypto-box';
import type { Principal } from '../domain/types';
import { FormloomError } from '../errors';
import { CalendarError, type Calendar, type CalendarConnection, type Calendars } from '../ports/calendar';
import type { Clock } from '../ports/clock';
import type { Plans } from '../ports/plans';
import type { CalendarConnectionRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';

export const calendarConnectionSchema = z
  .object({
    url: z.string().trim().min(1).max(2000).regex(/^https?:\/\//i, 'a URL starting with https:// or http://'),
    username: z.string().min(1).max(320),
    password: z.string().min(1).max(1000),
  })
  .strict();

export const calendarConnectionOut = z.object({
  /** Whether this server can connect calendars at all (a calendar adapter is configured). */
  available: z.boolean(),
  connected: z.boolean(),
  /** Whether the caller's plan includes booking questions (Pro or higher). */
  booking_allowed: z.boolean(),
  url: z.string().nullable(),
  username: z.string().nullable(),
  calendar_url: z.string().nullable(),
  calendar_name: z.string().nullable(),
  updated_at: z.string().nullable(),
});

export const calendarConnectionBody = z.object({ data: calendarConnectionOut });

export const calendarTestOut = z.object({ ok: z.literal(true), calendar_url: z.string(), calendar_name: z.string().nullable() });

/** A CalendarError as the owner's 4xx: `reason` calendar_<code>, the adapter's message (it names no secret). */
export function calendarRefusal(e: unknown): never {
  if (e instanceof CalendarError) {
    if (e.code === 'not_configured') throw new FormloomError('CONFLICT', e.message, { reason: 'calendar_not_configured' });
    throw new FormloomError('BAD_REQUEST', e.message, { reason: `calendar_${e.code}`, field: e.code === 'unauthorized' ? 'password' : 'url' });
  }
  throw e;
}

/**
 * Owners' calendar connections (docs/booking.md, "Connecting a calendar"): one per user, stored only once the
 * calendar answered, the password sealed with the instance's secret box and never returned. Booking questions of
 * the user's forms read and write that calendar; without one they are not ready (`booking_calendar_not_connected`).
 */
@injectable()
export class CalendarConnections {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Calendars) private readonly calendars: Calendars,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  private present(c: CalendarConnectionRecord | null, booking_allowed: boolean): z.infer<typeof calendarConnectionOut> {
    return {
      available: this.calendars.id !== 'none',
      connected: !!c,
      booking_allowed,
      url: c?.url ?? null,
      username: c?.username ?? null,
      calendar_url: c?.calendar_url ?? null,
      calendar_name: c?.calendar_name ?? null,
      updated_at: c?.updated_at ?? null,
    };
  }

  async status(principal: Principal) {
    const allowed = (await this.plans.featuresFor(principal.user_id)).booking;
    return { data: this.present(await this.storage.bookings.connectionOf(principal.user_id), allowed) };
  }

  /** Tests the connection, then stores it (replacing the caller's earlier one). */
  async connect(principal: Principal, body: z.infer<typeof calendarConnectionSchema>) {
    if (!(await this.plans.featuresFor(principal.user_id)).booking) {
      throw new FormloomError('FORBIDDEN', 'Booking questions need the Pro plan or higher', { reason: 'booking_requires_pro', upgrade_required: true });
    }
    const info = await this.calendars.connect(body).test().catch(calendarRefusal);
    const now = this.clock.now().toISOString();
    const earlier = await this.storage.bookings.connectionOf(principal.user_id);
    const record: CalendarConnectionRecord = {
      user_id: principal.user_id,
      url: body.url,
      username: body.username,
      password_sealed: this.box.seal(body.password),
      calendar_url: info.url,
      calendar_name: info.name,
      created_at: earlier?.created_at ?? now,
      updated_at: now,
    };
    await this.storage.bookings.putConnection(record);
    return { data: this.present(record, true) };
  }

  /** "Test connection": the stored connection, asked again. 404 without one. */
  async test(principal: Principal) {
    const c = await this.storage.bookings.connectionOf(principal.user_id);
    if (!c) throw new FormloomError('NOT_FOUND', 'No calendar is connected', { reason: 'calendar_not_connected' });
    const info = await this.calendarOf(c).test().catch(calendarRefusal);
    return { ok: true as const, calendar_url: info.url, calendar_name: info.name };
  }

  async disconnect(principal: Principal): Promise<void> {
    if (!(await this.storage.bookings.deleteConnection(principal.user_id))) throw new FormloomError('NOT_FOUND', 'No calendar is connected');
  }

  /** The user's calendar, or null when they connected none. */
  async calendarFor(userId: string, storage: Storage = this.storage): Promise<Calendar | null> {
    const c = await storage.bookings.connectionOf(userId);
    return c ? this.calendarOf(c) : null;
  }

  private calendarOf(c: CalendarConnectionRecord): Calendar {
    // The calendar the test found, so a server URL does not go through discovery again on every read.
    const connection: CalendarConnection = { url: c.calendar_url || c.url, username: c.username, password: this.box.open(c.password_sealed) };
    return this.calendars.connect(connection);
  }
}
