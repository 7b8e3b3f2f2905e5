import { timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { Question } from '../domain/types';
import { conflict, FormloomError } from '../errors';
import { sha256Hex } from '../hashing';
import { newOutboxItem } from '../outbox/outbox-items';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { BookingRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { BookingMails } from './booking-mails';
import { BookingService } from './booking-service';
import { BOOKING_CALENDAR_JOB } from './calendar-sync';

const token = z.string().min(1).max(200);
export const manageQuerySchema = z.object({ token }).strict();
export const manageSlotsQuerySchema = z.object({ token, from: z.string().max(40).optional(), to: z.string().max(40).optional() }).strict();
export const cancelSchema = z.object({ token }).strict();
export const rescheduleSchema = z.object({ token, start: z.string().max(40) }).strict();

export const bookingOut = z.object({
  data: z.object({
    id: z.string(),
    status: z.enum(['held', 'confirmed', 'cancelled', 'expired']),
    start: z.string(),
    end: z.string(),
    timezone: z.string(),
    form_title: z.string(),
    question_title: z.string(),
    /** Whether it can still be moved (confirmed, the form still published, not started yet). */
    can_reschedule: z.boolean(),
    can_cancel: z.boolean(),
  }),
});
export const rescheduledOut = z.object({ data: z.object({ id: z.string(), start: z.string(), end: z.string(), timezone: z.string(), status: z.literal('confirmed') }) });

const sameHash = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The cancel and reschedule links of a booking's mails (docs/booking.md, "Cancel and reschedule"): a public page
 * and these calls, each with the booking's token (its SHA-256 stored, compared in constant time). A wrong or
 * missing token is a 404, like an unknown booking. A move takes the new slot first (held, so it can fail
 * cleanly), then confirms it and cancels the old one in one transaction with the calendar writes and the mails.
 */
@injectable()
export class BookingManage {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(BookingService) private readonly bookings: BookingService,
    @inject(BookingMails) private readonly mails: BookingMails,
  ) {}

  private async authorized(id: string, given: string): Promise<BookingRecord> {
    const b = await this.storage.bookings.findById(id);
    if (!b || !b.manage_token_hash || !sameHash(b.manage_token_hash, sha256Hex(given))) throw new FormloomError('NOT_FOUND', 'Booking not found');
    return b;
  }

  private async context(b: BookingRecord) {
    const form = await this.storage.forms.findById(b.form_id);
    const version = form?.published && form.published_version_id ? await this.storage.versions.findById(form.published_version_id) : null;
    const q = ((version?.snapshot.questions as Question[] | undefined) ?? []).find((x) => x.id === b.question_id) ?? null;
    return { form, q };
  }

  async view(id: string, query: z.infer<typeof manageQuerySchema>) {
    const b = await this.authorized(id, query.token);
    const { form, q } = await this.context(b);
    const future = Date.parse(b.start) > this.clock.now().getTime();
    return {
      data: {
        id: b.id, status: b.status, start: b.start, end: b.end, timezone: b.timezone,
        form_title: form?.title ?? '', question_title: q?.title ?? '',
        can_reschedule: b.status === 'confirmed' && future && !!q, can_cancel: b.status === 'confirmed' && future,
      },
    };
  }

  /** The open slots to move to, of the booking's own duration. */
  async slots(id: string, query: z.infer<typeof manageSlotsQuerySchema>) {
    const b = await this.authorized(id, query.token);
    const { form, q } = await this.context(b);
    if (!form || !q) throw conflict('This booking can no longer be moved', { reason: 'booking_not_reschedulable' });
    const duration = Math.round((Date.parse(b.end) - Date.parse(b.start)) / 60_000);
    return this.bookings.slots(form.slug, { question_id: q.id, duration, ...(query.from ? { from: query.from } : {}), ...(query.to ? { to: query.to } : {}) });
  }

  async cancel(id: string, body: z.infer<typeof cancelSchema>) {
    const b = await this.authorized(id, body.token);
    if (b.status !== 'confirmed' || Date.parse(b.start) <= this.clock.now().getTime()) throw conflict('This booking can no longer be cancelled', { reason: 'booking_not_cancellable' });
    const now = this.clock.now().toISOString();
    await this.storage.transaction(async (tx) => {
      if (!(await tx.bookings.cancel(b.id, now))) throw conflict('This booking can no longer be cancelled', { reason: 'booking_not_cancellable' });
      await tx.outbox.enqueue(newOutboxItem(this.ids, now, BOOKING_CALENDAR_JOB, { booking_id: b.id, action: 'delete' }));
      await this.mails.queue(tx, { ...b, status: 'cancelled' }, null, 'cancelled');
    });
    return this.view(id, { token: body.token });
  }

  async reschedule(id: string, body: z.infer<typeof rescheduleSchema>) {
    const old = await this.authorized(id, body.token);
    const { form, q } = await this.context(old);
    if (old.status !== 'confirmed' || !form || !q || Date.parse(old.start) <= this.clock.now().getTime()) {
      throw conflict('This booking can no longer be moved', { reason: 'booking_not_reschedulable' });
    }
    const duration = Math.round((Date.parse(old.end) - Date.parse(old.start)) / 60_000);
    const held = await this.bookings.hold(form.slug, { question_id: q.id, start: body.start, duration, timezone: old.timezone });
    const fresh = this.ids.secret(24);
    const now = this.clock.now().toISOString();
    await this.storage.transaction(async (tx) => {
      if (!(await tx.bookings.cancel(old.id, now))) throw conflict('This booking can no longer be moved', { reason: 'booking_not_reschedulable' });
      if (!(await tx.bookings.confirm(held.data.id, { response_id: old.response_id ?? '', manage_token_hash: sha256Hex(fresh), updated_at: now }))) {
        throw conflict('This time is no longer available; please pick another', { reason: 'slot_unavailable' });
      }
      await tx.outbox.enqueue(newOutboxItem(this.ids, now, BOOKING_CALENDAR_JOB, { booking_id: old.id, action: 'delete' }));
      await tx.outbox.enqueue(newOutboxItem(this.ids, now, BOOKING_CALENDAR_JOB, { booking_id: held.data.id, action: 'put' }));
      const moved = (await tx.bookings.findById(held.data.id))!;
      await this.mails.queue(tx, moved, fresh, 'rescheduled');
    });
    return { data: { id: held.data.id, start: held.data.start, end: held.data.end, timezone: held.data.timezone, status: 'confirmed' as const } };
  }
}
