import type { FormRecord, Question } from '../domain/types';
import type { CalendarEvent } from '../ports/calendar';
import type { BookingRecord, Storage } from '../ports/storage';
import { isEmailAddress } from '../email-address';

/** Who booked and for what: read from the booking's response and form (docs/booking.md, "What is sent"). */
export interface BookingDetails {
  booking: BookingRecord;
  form: FormRecord;
  question: Question | null;
  /** The first email answer of the response, else null. */
  respondentEmail: string | null;
  /** A name answered in a contact-info question, else null. */
  respondentName: string | null;
  owner: { email: string; name: string | null } | null;
  /** The language the response was answered in, else the form's (docs/languages.md), else null. */
  language: string | null;
}

export async function bookingDetails(storage: Storage, booking: BookingRecord): Promise<BookingDetails | null> {
  const form = await storage.forms.findById(booking.form_id);
  if (!form) return null;
  const response = booking.response_id ? await storage.responses.findById(booking.form_id, booking.response_id) : null;
  const version = response?.version_id ? await storage.versions.findById(response.version_id) : null;
  const questions = ((version?.snapshot.questions as Question[] | undefined) ?? []);
  const answers = response?.answers ?? [];
  const typeOf = new Map(questions.map((q) => [q.id, q.type]));
  let respondentEmail: string | null = null;
  let respondentName: string | null = null;
  for (const a of answers) {
    const type = typeOf.get(a.question_id);
    if (!respondentEmail && type === 'email' && typeof a.value === 'string' && isEmailAddress(a.value)) respondentEmail = a.value;
    if (type === 'contact_info' && a.value && typeof a.value === 'object') {
      const v = a.value as Record<string, unknown>;
      if (!respondentEmail && typeof v.email === 'string' && isEmailAddress(v.email)) respondentEmail = v.email;
      const name = [v.first_name, v.last_name].filter((s) => typeof s === 'string' && s.trim()).join(' ');
      if (!respondentName && name) respondentName = name;
    }
  }
  const user = await storage.users.findById(form.owner_id);
  return {
    booking,
    form,
    question: questions.find((q) => q.id === booking.question_id) ?? null,
    respondentEmail,
    respondentName,
    owner: user?.email ? { email: user.email, name: [user.first_name, user.last_name].filter(Boolean).join(' ') || null } : null,
    language: response?.language ?? (typeof version?.snapshot.language === 'string' ? version.snapshot.language : null) ?? (typeof form.options.language === 'string' ? form.options.language : null),
  };
}

/** The calendar event of a confirmed booking. */
export async function bookingEventOf(storage: Storage, booking: BookingRecord): Promise<CalendarEvent> {
  const d = await bookingDetails(storage, booking);
  const who = d?.respondentName ?? d?.respondentEmail ?? 'a respondent';
  return {
    uid: booking.id,
    start: booking.start,
    end: booking.end,
    summary: `${d?.question?.title || d?.form.title || 'Booking'} (${who})`,
    description: `Booked through the form "${d?.form.title ?? ''}" (response ${booking.response_id ?? ''}).`,
    ...(d?.respondentEmail ? { attendees: [{ email: d.respondentEmail, ...(d.respondentName ? { name: d.respondentName } : {}) }] } : {}),
    ...(d?.owner ? { organizer: { email: d.owner.email, ...(d.owner.name ? { name: d.owner.name } : {}) } } : {}),
  };
}
