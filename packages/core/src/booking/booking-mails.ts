import { inject, injectable } from 'tsyringe';
import type { FormloomConfig } from '../config';
import type { SecretBox } from '../crypto-box';
import { enqueueMail } from '../outbox/mail-handler';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { MailMessage } from '../ports/mailer';
import type { BookingRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { bookingDetails, type BookingDetails } from './booking-details';
import { BOOKING_MAIL_WORDS, bookingMailLanguage, bookingMailLocale } from './booking-mail-words';

/**
 * The links in a booking's mails: the public page that cancels or moves it, with the booking's own token, in the
 * mail's language (`lang=`, left out for English).
 */
export function manageLinks(publicUrl: string, bookingId: string, token: string, language = 'en') {
  const base = `${publicUrl.replace(/\/+$/, '')}/bookings/${encodeURIComponent(bookingId)}?token=${encodeURIComponent(token)}${language === 'en' ? '' : `&lang=${encodeURIComponent(language)}`}`;
  return { manage: base, cancel: `${base}&action=cancel`, reschedule: `${base}&action=reschedule` };
}

/** A time as people read it, in `zone` (`Monday, 7 December 2026, 10:00 – 10:30 (Europe/Paris)`). */
export function whenText(b: Pick<BookingRecord, 'start' | 'end'>, zone: string, locale = 'en-GB'): string {
  const day = new Intl.DateTimeFormat(locale, { timeZone: zone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date(b.start));
  const t = new Intl.DateTimeFormat(locale, { timeZone: zone, hour: '2-digit', minute: '2-digit' });
  return `${day}, ${t.format(new Date(b.start))} – ${t.format(new Date(b.end))} (${zone})`;
}

/**
 * The invitation as iCalendar (RFC 5546), made with ical-generator, loaded with the first booking mail rather
 * than with the server (docs/benchmarks.md). The uid is the booking's, so a client updates the same entry when a
 * reschedule or cancellation arrives (`sequence` goes up).
 */
export function invitationIcs(d: BookingDetails, method: 'REQUEST' | 'CANCEL', links: { manage: string } | null, sequence: number, language = 'en'): string {
  const { default: ical, ICalCalendarMethod, ICalEventStatus } = require('ical-generator') as typeof import('ical-generator');
  const words = BOOKING_MAIL_WORDS[language] ?? BOOKING_MAIL_WORDS.en!;
  const cal = ical({ prodId: { company: 'Formloom', product: 'Booking', language: language.toUpperCase() }, method: method === 'CANCEL' ? ICalCalendarMethod.CANCEL : ICalCalendarMethod.REQUEST });
  cal.createEvent({
    id: d.booking.id,
    sequence,
    start: new Date(d.booking.start),
    end: new Date(d.booking.end),
    summary: d.question?.title || d.form.title,
    description: links ? `${words.manage}: ${links.manage}` : null,
    ...(links ? { url: links.manage } : {}),
    status: method === 'CANCEL' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    ...(d.owner ? { organizer: { email: d.owner.email, name: d.owner.name ?? d.owner.email } } : {}),
    attendees: d.respondentEmail ? [{ email: d.respondentEmail, ...(d.respondentName ? { name: d.respondentName } : {}), rsvp: false }] : [],
  });
  return cal.toString();
}

/**
 * The mails of a booking (docs/booking.md, "Mails"): to the respondent (the form's first email answer) and to the
 * form's owner, each with the invitation and the cancel and reschedule links; queued in the transaction that
 * confirms, moves or cancels the booking, sealed in the outbox like every mail (they carry the link token).
 */
@injectable()
export class BookingMails {
  constructor(
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /**
   * What happened, as the mails say it: the respondent's in the language their response was answered in (else the
   * form's, else English: booking-mail-words.ts), with the time in their zone; the owner's in English, in the
   * zone of the hours.
   */
  async queue(tx: Storage, booking: BookingRecord, token: string | null, what: 'confirmed' | 'rescheduled' | 'cancelled'): Promise<number> {
    const d = await bookingDetails(tx, booking);
    if (!d) return 0;
    const linksIn = (language: string) => (token ? manageLinks(this.config.publicUrl, booking.id, token, language) : null);
    const method = what === 'cancelled' ? 'CANCEL' : 'REQUEST';
    const sequence = what === 'rescheduled' ? 1 : what === 'cancelled' ? 2 : 0;
    const calendarIn = (language: string) => ({ method, content: invitationIcs(d, method, what === 'cancelled' ? null : linksIn(language), sequence, language) }) as const;
    const title = d.question?.title || d.form.title;
    const ownerZone = typeof d.question?.properties.timezone === 'string' ? d.question.properties.timezone : 'UTC';
    const lines = (language: string, zone: string) => {
      const w = BOOKING_MAIL_WORDS[language]!;
      const links = linksIn(language);
      return [
        `${w[what]}: ${title}`,
        whenText(booking, zone, bookingMailLocale(language)),
        '',
        ...(links ? [`${w.cancel}: ${links.cancel}`, `${w.reschedule}: ${links.reschedule}`, ''] : []),
        `${w.form}: ${d.form.title}`,
      ];
    };
    const messages: MailMessage[] = [];
    if (d.respondentEmail) {
      const language = bookingMailLanguage(d.language);
      const when = whenText(booking, booking.timezone, bookingMailLocale(language));
      messages.push({ to: d.respondentEmail, subject: `${BOOKING_MAIL_WORDS[language]![what]}: ${title}, ${when}`, text: lines(language, booking.timezone).join('\n'), calendar: calendarIn(language), ...(d.owner ? { replyTo: d.owner.email } : {}) });
    }
    if (d.owner) {
      const who = d.respondentName ?? d.respondentEmail ?? 'A respondent';
      const verb = BOOKING_MAIL_WORDS.en![what];
      messages.push({ to: d.owner.email, subject: `${verb} by ${who}: ${title}, ${whenText(booking, ownerZone)}`, text: [`${who} (response ${booking.response_id ?? ''})`, ...lines('en', ownerZone)].join('\n'), calendar: calendarIn('en') });
    }
    for (const m of messages) await enqueueMail(tx, this.ids, this.clock, this.box, m);
    return messages.length;
  }
}
