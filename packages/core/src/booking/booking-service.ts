import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { ReadCaches } from '../cache/read-caches';
import type { FormloomConfig } from '../config';
import type { FormRecord, Question, Version } from '../domain/types';
import { badRequest, conflict, notFound } from '../errors';
import { sha256Hex } from '../hashing';
import { newOutboxItem } from '../outbox/outbox-items';
import { CalendarError } from '../ports/calendar';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { BookingRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { CalendarConnections } from './calendar-connections';
import { BOOKING_CALENDAR_JOB } from './calendar-sync';
import { bookingSettingsOf, openSlots, type BookingSettings, type Interval } from './slots';
import { isTimeZone } from './zoned-time';

// A date-time as the document says it (format date-time), so a client reading the schema sends what is accepted.
const iso = z.iso.datetime({ offset: true });
const zone = z.string().max(100).refine(isTimeZone, 'an IANA time zone, e.g. Europe/Paris');

export const slotQuerySchema = z
  .object({
    question_id: z.string().min(1).max(100),
    duration: z.coerce.number().int().positive().max(1440).optional(),
    from: iso.optional(),
    to: iso.optional(),
  })
  .strict();

export const holdSchema = z.object({ question_id: z.string().min(1).max(100), start: iso, duration: z.number().int().positive().max(1440), timezone: zone }).strict();

const interval = z.object({ start: z.string(), end: z.string() });
export const slotsOut = z.object({
  data: z.object({ question_id: z.string(), duration: z.number(), durations: z.array(z.number()), timezone: z.string(), from: z.string(), to: z.string(), slots: z.array(interval) }),
});
/** The held slot, as the page sends it back as the booking question's answer. */
export const heldSlot = z.object({ id: z.string(), start: z.string(), end: z.string(), timezone: z.string() });
export const holdOut = z.object({ data: heldSlot.extend({ question_id: z.string(), held_until: z.string() }) });

/** At most this much of the calendar in one slot request, and no further ahead than the horizon. */
const MAX_RANGE_DAYS = 35;
const DAY = 86_400_000;

/** Busy times read from owners' calendars are kept this long (per owner and range) between slot requests. */
const BUSY_CACHE_MS = 30_000;

/**
 * Booking questions on the respondent's page (docs/booking.md): the open slots, holding one while the respondent
 * finishes, and confirming it with their response (in the submission's transaction: the response and its booking
 * commit together or not at all). The slot is never booked twice: storage's cells (ports/storage/bookings.ts).
 */
@injectable()
export class BookingService {
  private readonly busyCache = new Map<string, { at: number; busy: Interval[] }>();

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(ReadCaches) private readonly caches: ReadCaches,
    @inject(CalendarConnections) private readonly connections: CalendarConnections,
  ) {}

  /** Minutes a slot stays held while the respondent finishes (`config.bookingHoldMinutes`, default 10). */
  get holdMinutes(): number {
    return this.config.bookingHoldMinutes ?? 10;
  }

  private async question(slug: string, questionId: string): Promise<{ form: FormRecord; version: Version; q: Question; settings: BookingSettings }> {
    const found = await this.caches.publishedForm(this.storage, slug);
    if (!found) throw notFound('Form');
    const questions = (found.version.snapshot.questions as Question[] | undefined) ?? [];
    const q = questions.find((x) => x.id === questionId);
    if (!q || q.type !== 'booking') throw badRequest('question_id: not a booking question of this form', { field: 'question_id', reason: 'not_a_booking_question' });
    const settings = bookingSettingsOf(q);
    if (!settings) throw conflict('This booking question is not ready', { reason: 'booking_not_ready' });
    return { ...found, q, settings };
  }

  /** What is busy for the owner in `range`: their calendar (kept briefly unless `fresh`) and the bookings taken. */
  private async busy(ownerId: string, range: Interval, fresh: boolean): Promise<Interval[]> {
    const now = this.clock.now();
    const key = `${ownerId}|${range.start}|${range.end}`;
    let calendarBusy = fresh ? undefined : this.busyCache.get(key);
    if (!calendarBusy || now.getTime() - calendarBusy.at > BUSY_CACHE_MS) {
      const calendar = await this.connections.calendarFor(ownerId);
      if (!calendar) throw conflict('The form owner has no calendar connected', { reason: 'booking_calendar_not_connected' });
      const busy = await calendar.busyTimes(range).catch((e) => {
        // Offering slots without the owner's appointments could book over them: refuse until it answers.
        throw conflict(`The form owner's calendar cannot be read just now; try again in a moment`, { reason: 'calendar_unavailable', ...(e instanceof CalendarError ? { calendar_error: e.code } : {}) });
      });
      calendarBusy = { at: now.getTime(), busy };
      if (this.busyCache.size > 500) this.busyCache.clear();
      this.busyCache.set(key, calendarBusy);
    }
    const taken = await this.storage.bookings.taken(ownerId, range, now.toISOString());
    return [...calendarBusy.busy, ...taken];
  }

  /** GET /public/forms/:slug/bookings/slots: the open slots of one duration in a range (default: the next 7 days). */
  async slots(slug: string, query: z.infer<typeof slotQuerySchema>) {
    const { form, q, settings } = await this.question(slug, query.question_id);
    const duration = query.duration ?? settings.durations[0]!;
    if (!settings.durations.includes(duration)) throw badRequest(`duration: one of ${settings.durations.join(', ')} minutes`, { field: 'duration' });
    const now = this.clock.now().getTime();
    const from = query.from ? Date.parse(query.from) : now;
    const to = query.to ? Date.parse(query.to) : from + 7 * DAY;
    if (to <= from) throw badRequest('to: must be after from', { field: 'to' });
    if (to - from > MAX_RANGE_DAYS * DAY) throw badRequest(`to: at most ${MAX_RANGE_DAYS} days after from`, { field: 'to' });
    const range = { start: new Date(from).toISOString(), end: new Date(to).toISOString() };
    const slots = to <= now ? [] : openSlots({ settings, duration, range, earliest: now, busy: await this.busy(form.owner_id, range, false) });
    return { data: { question_id: q.id, duration, durations: settings.durations, timezone: settings.timezone, from: range.start, to: range.end, slots } };
  }

  /**
   * POST /public/forms/:slug/bookings/holds: holds an open slot for `holdMinutes`. 409 `slot_unavailable` when it
   * is not open (taken meanwhile, busy in the owner's calendar, outside the hours, in the past).
   */
  async hold(slug: string, body: z.infer<typeof holdSchema>) {
    const { form, q, settings } = await this.question(slug, body.question_id);
    if (!settings.durations.includes(body.duration)) throw badRequest(`duration: one of ${settings.durations.join(', ')} minutes`, { field: 'duration' });
    const start = Date.parse(body.start);
    const range = { start: new Date(start).toISOString(), end: new Date(start + body.duration * 60_000).toISOString() };
    const now = this.clock.now();
    // The owner's calendar asked again for exactly this slot: an appointment made since the list was shown counts.
    const open = openSlots({ settings, duration: body.duration, range: { start: range.start, end: new Date(start + 1).toISOString() }, earliest: now.getTime(), busy: await this.busy(form.owner_id, range, true) });
    const unavailable = () => conflict('This time is no longer available; please pick another', { reason: 'slot_unavailable', question_ids: [q.id] });
    if (!open.length) throw unavailable();
    const nowIso = now.toISOString();
    const booking: BookingRecord = {
      id: this.ids.id('bkg'),
      owner_id: form.owner_id,
      form_id: form.id,
      question_id: q.id,
      response_id: null,
      status: 'held',
      start: range.start,
      end: range.end,
      timezone: body.timezone,
      held_until: new Date(now.getTime() + this.holdMinutes * 60_000).toISOString(),
      manage_token_hash: null,
      rescheduled_from: null,
      created_at: nowIso,
      updated_at: nowIso,
    };
    if (!(await this.storage.bookings.take(booking, nowIso))) throw unavailable();
    return { data: { id: booking.id, question_id: q.id, start: booking.start, end: booking.end, timezone: booking.timezone, held_until: booking.held_until! } };
  }

  /**
   * In the transaction of a completed response: each booking question's held slot becomes the response's
   * booking, its calendar event is queued (outbox, retried), and `onConfirmed` queues the mails. A hold that lost
   * its slot fails the submission with 409 `slot_unavailable`, so the respondent picks again.
   */
  async confirmIn(
    tx: Storage,
    form: FormRecord,
    responseId: string,
    questions: readonly Question[],
    answers: ReadonlyArray<{ question_id: string; value: unknown }>,
    onConfirmed: (booking: BookingRecord, token: string) => Promise<void>,
  ): Promise<boolean> {
    let queued = false;
    for (const q of questions) {
      if (q.type !== 'booking') continue;
      const value = answers.find((a) => a.question_id === q.id)?.value;
      const held = heldSlot.safeParse(value);
      if (!held.success) continue;
      const booking = await tx.bookings.findById(held.data.id);
      const matches = booking && booking.form_id === form.id && booking.question_id === q.id && booking.start === held.data.start && booking.end === held.data.end;
      const token = this.ids.secret(24);
      const now = this.clock.now().toISOString();
      if (!matches || !(await tx.bookings.confirm(booking.id, { response_id: responseId, manage_token_hash: sha256Hex(token), updated_at: now }))) {
        throw conflict('The time picked is no longer held; please pick another', { reason: 'slot_unavailable', question_ids: [q.id] });
      }
      const confirmed: BookingRecord = { ...booking, status: 'confirmed', response_id: responseId, held_until: null, manage_token_hash: sha256Hex(token), updated_at: now };
      await tx.outbox.enqueue(newOutboxItem(this.ids, now, BOOKING_CALENDAR_JOB, { booking_id: booking.id, action: 'put' }));
      await onConfirmed(confirmed, token);
      queued = true;
    }
    return queued;
  }
}
