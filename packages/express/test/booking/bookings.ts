import test from '../helpers/bounded-test';
import { waitFor } from '@formloom/core/testing';
import { caldavPlugin } from '@formloom/calendar-caldav';
import { Radicale } from '@formloom/calendar-caldav/testing';
import { forEachDb, type TestApp } from '../helpers/app';
import { memoryMailer } from '../helpers/signing';
import { webhookReceiver } from '../helpers/browser';

/*
 * Booking questions (docs/booking.md) through the HTTP API, on SQLite and PostgreSQL, with the owner's calendar on
 * a real Radicale: connecting it (tested first, password sealed), readiness at publish, slots minus the calendar and
 * the bookings, holds, the booking confirmed with the response (event written through the outbox, invitations
 * mailed), cancel and reschedule by the mails' links. The two-instance race: race.ts.
 */

let radicale: Radicale;
// Long enough that no sealed value holds one by chance ("sealed at rest" searches the stored text for it).
const USERS = { sqlite_a: 'passwordSqliteA7k2', sqlite_b: 'passwordSqliteB7k2', postgres_a: 'passwordPostgresA7k2', postgres_b: 'passwordPostgresB7k2', sqlite_l: 'passwordSqliteL7k2', postgres_l: 'passwordPostgresL7k2' } as const;
test.before(async () => {
  radicale = await Radicale.start({ ...USERS });
});
test.after.always(() => radicale?.close());

const mailer = memoryMailer();
const HOURS = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, start: '08:00', end: '20:00' }));
const BOOKING = { hours: HOURS, timezone: 'Europe/Paris', durations: [30, 60] };

async function bookingForm(app: TestApp, radicaleUser: keyof typeof USERS, webhook_url?: string, languages?: Record<string, unknown>) {
  const u = await app.user('pro');
  const put = await app.api('PUT', '/calendar/connection', { key: u.key, body: { url: radicale.url, username: radicaleUser, password: USERS[radicaleUser] } });
  if (put.status !== 200) throw new Error(`connect: ${put.status} ${put.text}`);
  const created = await app.api('POST', '/forms', {
    key: u.key,
    body: {
      title: 'Intro call',
      published: true,
      ...(webhook_url ? { webhook_url } : {}),
      ...languages,
      questions: [
        { type: 'email', title: 'Your email', required: true },
        { type: 'booking', title: 'Pick a time', required: true, properties: BOOKING },
      ],
    },
  });
  if (created.status !== 201 || !created.body.published) throw new Error(`form: ${created.status} ${created.text}`);
  const [email, booking] = created.body.questions as Array<{ id: string }>;
  return { u, form: created.body, slug: created.body.slug as string, emailQ: email!.id, bookingQ: booking!.id };
}

forEachDb(test, (it) => {
  it('calendar connection: Pro only, tested before it is stored, password never returned; readiness at publish', async (t, app) => {
    const free = await app.user('free');
    const refused = await app.api('PUT', '/calendar/connection', { key: free.key, body: { url: radicale.url, username: 'x', password: 'y' } });
    t.is(refused.status, 403);
    t.like(refused.body.error, { reason: 'booking_requires_pro', upgrade_required: true });

    const u = await app.user('pro');
    const user = `${app.kind}_a` as keyof typeof USERS;
    const blocked = await app.api('POST', '/forms', { key: u.key, body: { title: 'B', published: true, questions: [{ type: 'booking', title: 'Book', properties: { ...BOOKING, calendar_connected: true } }] } });
    t.like(blocked.body.publish_error, { reason: 'booking_calendar_not_connected', upgrade_required: false }, 'the property alone does not connect a calendar');

    const wrong = await app.api('PUT', '/calendar/connection', { key: u.key, body: { url: radicale.url, username: user, password: 'wrong' } });
    t.is(wrong.status, 400);
    t.like(wrong.body.error, { code: 'BAD_REQUEST', reason: 'calendar_unauthorized', field: 'password' });
    const down = await app.api('PUT', '/calendar/connection', { key: u.key, body: { url: 'http://127.0.0.1:9/', username: user, password: USERS[user] } });
    t.like(down.body.error, { reason: 'calendar_unreachable' });
    t.is((await app.api('PUT', '/calendar/connection', { key: u.key, body: { url: 'ftp://x', username: 'a', password: 'b' } })).status, 400);
    t.false((await app.api('GET', '/calendar/connection', { key: u.key })).body.data.connected, 'nothing stored');

    const ok = await app.api('PUT', '/calendar/connection', { key: u.key, body: { url: radicale.url, username: user, password: USERS[user] } });
    t.is(ok.status, 200);
    t.like(ok.body.data, { available: true, connected: true, booking_allowed: true, username: user, calendar_url: radicale.users[user]!.calendarUrl, calendar_name: `${user}'s calendar` });
    t.false(JSON.stringify(ok.body).includes(USERS[user]), 'the password is never returned');
    const [row] = await app.raw('SELECT password_sealed FROM calendar_connections');
    t.false(String(row.password_sealed).includes(USERS[user]), 'sealed at rest');
    t.like((await app.api('POST', '/calendar/connection/test', { key: u.key })).body, { ok: true, calendar_url: radicale.users[user]!.calendarUrl });

    const steps: Array<[Record<string, unknown>, string | null]> = [
      [{ timezone: 'Europe/Paris', durations: [30] }, 'booking_hours_missing'],
      [{ hours: HOURS, durations: [30] }, 'booking_timezone_missing'],
      [{ hours: HOURS, timezone: 'Europe/Paris' }, 'booking_duration_missing'],
      [{ ...BOOKING, confirmation_call: true }, 'booking_confirmation_number_missing'],
      [BOOKING, null],
    ];
    for (const [properties, reason] of steps) {
      const r = await app.api('POST', '/forms', { key: u.key, body: { title: 'B', published: true, questions: [{ type: 'booking', title: 'Book', properties }] } });
      if (reason) t.like(r.body.publish_error, { reason }, reason);
      else t.true(r.body.published);
    }
    t.is((await app.api('DELETE', '/calendar/connection', { key: u.key })).status, 200);
    t.is((await app.api('POST', '/calendar/connection/test', { key: u.key })).status, 404);
  });

  it('booking: slots minus the calendar and bookings; a hold; the booking with the response, in the calendar, mailed; cancel and reschedule links', async (t, app) => {
    const user = `${app.kind}_b` as keyof typeof USERS;
    app.formloom.worker.start({ pollMs: 50 });
    const hook = await webhookReceiver();
    t.teardown(() => hook.close());
    const { u, form, slug, emailQ, bookingQ } = await bookingForm(app, user, hook.url);
    const slotsOf = async (query: string) => app.api('GET', `/public/forms/${slug}/bookings/slots?question_id=${bookingQ}${query}`);
    const first = await slotsOf('&duration=60');
    t.is(first.status, 200);
    t.like(first.body.data, { duration: 60, durations: [30, 60], timezone: 'Europe/Paris' });
    const slots = first.body.data.slots as Array<{ start: string; end: string }>;
    t.true(slots.length > 20);
    t.true(slots.every((s) => Date.parse(s.end) - Date.parse(s.start) === 3_600_000 && Date.parse(s.start) > Date.now()));
    const paris = (iso: string) => new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
    t.true(slots.every((s) => paris(s.start) >= '08:00' && paris(s.start) <= '19:00'), "within the owner's hours, in their zone");
    t.is((await slotsOf('&duration=45')).status, 400);
    t.is((await app.api('GET', `/public/forms/${slug}/bookings/slots?question_id=${emailQ}`)).status, 400);

    // An appointment the owner made elsewhere takes its time out of the list (a day ahead, a range of its own: four
    // hours that end before the owner's day does, whatever the time of day the test runs at).
    const day = slots.find((s) => Date.parse(s.start) > Date.now() + 86_400_000 && paris(s.start) <= '15:00')!;
    const from = `&from=${encodeURIComponent(day.start)}&to=${encodeURIComponent(new Date(Date.parse(day.start) + 4 * 3_600_000).toISOString())}`;
    const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    await radicale.putRaw(user, 'own-1', ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//t//EN', 'BEGIN:VEVENT', 'UID:own-1', `DTSTAMP:${stamp(day.start)}`, `DTSTART:${stamp(day.start)}`, `DTEND:${stamp(new Date(Date.parse(day.start) + 30 * 60_000).toISOString())}`, 'SUMMARY:Dentist', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n'));
    const around = (await slotsOf(`&duration=30${from}`)).body.data.slots as Array<{ start: string }>;
    t.false(around.some((s) => s.start === day.start), 'busy in the calendar');
    t.true(around.some((s) => Date.parse(s.start) === Date.parse(day.start) + 30 * 60_000));

    // Hold one; the same time (or an overlapping one) cannot be held again.
    const pick = around[2]!;
    const hold = await app.api('POST', `/public/forms/${slug}/bookings/holds`, { body: { question_id: bookingQ, start: pick.start, duration: 30, timezone: 'America/New_York' } });
    t.is(hold.status, 201);
    t.true(Date.parse(hold.body.data.held_until) > Date.now());
    const again = await app.api('POST', `/public/forms/${slug}/bookings/holds`, { body: { question_id: bookingQ, start: pick.start, duration: 60, timezone: 'UTC' } });
    t.is(again.status, 409);
    t.like(again.body.error, { reason: 'slot_unavailable' });
    t.false(((await slotsOf(`&duration=30${from}`)).body.data.slots as Array<{ start: string }>).some((s) => s.start === pick.start), 'held: not offered');
    t.is((await app.api('POST', `/public/forms/${slug}/bookings/holds`, { body: { question_id: bookingQ, start: '2020-01-01T10:00:00.000Z', duration: 30, timezone: 'UTC' } })).status, 409, 'the past');

    // The response completes the booking.
    const { id, start, end, timezone } = hold.body.data;
    const answer = { id, start, end, timezone };
    t.is((await app.api('POST', `/public/forms/${slug}/responses`, { body: { answers: [{ question_id: emailQ, value: 'ann@example.com' }, { question_id: bookingQ, value: { ...answer, id: 'bkg_forged' } }] } })).status, 409, 'an unknown hold');
    const sent = await app.api('POST', `/public/forms/${slug}/responses`, { body: { answers: [{ question_id: emailQ, value: 'ann@example.com' }, { question_id: bookingQ, value: answer }] } });
    t.is(sent.status, 201, sent.text);
    const twice = await app.api('POST', `/public/forms/${slug}/responses`, { body: { answers: [{ question_id: emailQ, value: 'bob@example.com' }, { question_id: bookingQ, value: answer }] } });
    t.is(twice.status, 409, 'one hold, one booking');
    const stored = await app.api('GET', `/forms/${form.id}/responses/${sent.body.id}`, { key: u.key });
    t.deepEqual(stored.body.answers.find((a: { question_id: string }) => a.question_id === bookingQ).value, answer);
    const csv = await app.api('GET', `/forms/${form.id}/responses/export?format=csv`, { key: u.key });
    t.true(csv.text.includes(start), 'in the CSV');
    const delivered = await waitFor(() => hook.bodies.find((b) => JSON.stringify(b).includes(id)), { what: 'the webhook' });
    t.true(JSON.stringify(delivered).includes(`"timezone":"America/New_York"`), 'in the webhook');

    // Written into the calendar through the outbox; invitations to both, with working links.
    const event = await waitFor(() => radicale.getRaw(user, id), { what: 'the event in the calendar' });
    t.regex(event!, new RegExp(`DTSTART:${stamp(start)}`));
    const mails = await waitFor(() => { const m = mailer.sent.filter((x) => x.calendar?.content.includes(id)); return m.length >= 2 && m; }, { what: 'the invitations' });
    const toAnn = mails.find((m) => m.to === 'ann@example.com')!;
    t.truthy(mails.find((m) => m.to === u.email));
    t.is(toAnn.calendar!.method, 'REQUEST');
    t.regex(toAnn.calendar!.content, /METHOD:REQUEST/);
    t.regex(toAnn.subject, /America\/New_York/, "the respondent's own zone");
    const link = new URL(/Reschedule: (\S+)/.exec(toAnn.text)![1]!);
    const token = link.searchParams.get('token')!;
    t.is(link.pathname, `/bookings/${id}`);
    t.is((await app.api('GET', `/public/bookings/${id}?token=wrong`)).status, 404);
    // The mailed link's page: the booking, Cancel, and the times to move to (plain HTML forms).
    const page = await fetch(link.href.replace(/^https?:\/\/[^/]+/, app.url));
    t.is(page.status, 200);
    const html = await page.text();
    t.regex(html, /Cancel this booking/);
    t.regex(html, /Move my booking/);
    t.is(page.headers.get('referrer-policy'), 'no-referrer');
    t.is((await fetch(`${app.url}/bookings/${id}?token=nope`)).status, 404);
    t.like((await app.api('GET', `/public/bookings/${id}?token=${token}`)).body.data, { status: 'confirmed', start, can_reschedule: true, form_title: 'Intro call' });

    const later = ((await app.api('GET', `/public/bookings/${id}/slots?token=${token}&from=${encodeURIComponent(new Date(Date.parse(end) + 3_600_000).toISOString())}`)).body.data.slots as Array<{ start: string }>)[0]!;
    const moved = await app.api('POST', `/public/bookings/${id}/reschedule`, { body: { token, start: later.start } });
    t.is(moved.status, 200, moved.text);
    const newId = moved.body.data.id;
    await waitFor(async () => (await radicale.getRaw(user, id)) === null && (await radicale.getRaw(user, newId)), { what: 'the event moved' });
    t.is((await app.api('GET', `/public/bookings/${id}?token=${token}`)).body.data.status, 'cancelled');
    const movedMail = await waitFor(() => mailer.sent.find((m) => m.to === 'ann@example.com' && m.calendar?.content.includes(newId)), { what: 'the moved mail' });
    const newToken = new URL(/Cancel: (\S+)/.exec(movedMail.text)![1]!).searchParams.get('token')!;
    const viaPage = await fetch(`${app.url}/bookings/${newId}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: newToken, do: 'cancel' }) });
    t.regex(await viaPage.text(), /Your booking is cancelled/, 'cancelled from the page');
    t.like((await app.api('GET', `/public/bookings/${newId}?token=${newToken}`)).body.data, { status: 'cancelled', can_cancel: false });
    t.is((await app.api('POST', `/public/bookings/${newId}/cancel`, { body: { token: newToken } })).status, 409);
    await waitFor(async () => (await radicale.getRaw(user, newId)) === null, { what: 'the event removed' });
    await waitFor(() => mailer.sent.find((m) => m.calendar?.method === 'CANCEL' && m.calendar.content.includes(newId)), { what: 'the cancellation mail' });
    t.true(((await slotsOf(`&duration=30&from=${encodeURIComponent(later.start)}`)).body.data.slots as Array<{ start: string }>).some((s) => s.start === later.start), 'free again');
  });

  it("booking mails in the respondent's language: the response's language (else the form's), the owner's in English", async (t, app) => {
    app.formloom.worker.start({ pollMs: 50 });
    const { u, form, slug, emailQ, bookingQ } = await bookingForm(app, `${app.kind}_l` as keyof typeof USERS, undefined, { language: 'en', languages: ['fr'] });
    const slots = (await app.api('GET', `/public/forms/${slug}/bookings/slots?question_id=${bookingQ}&duration=30`)).body.data.slots as Array<{ start: string }>;
    const book = async (email: string, start: string, language?: string) => {
      const hold = await app.api('POST', `/public/forms/${slug}/bookings/holds`, { body: { question_id: bookingQ, start, duration: 30, timezone: 'Europe/Paris' } });
      t.is(hold.status, 201, hold.text);
      const { id, end, timezone } = hold.body.data;
      const sent = await app.api('POST', `/public/forms/${slug}/responses`, { body: { answers: [{ question_id: emailQ, value: email }, { question_id: bookingQ, value: { id, start, end, timezone } }], ...(language ? { language } : {}) } });
      t.is(sent.status, 201, sent.text);
      return id as string;
    };
    const mailTo = (to: string, id: string, method = 'REQUEST') => waitFor(() => mailer.sent.find((m) => m.to === to && m.calendar?.method === method && m.calendar.content.includes(id)), { what: `the mail to ${to}` });
    const fr = await book('fr@example.com', slots[1]!.start, 'fr');
    const inFrench = await mailTo('fr@example.com', fr);
    const day = new Intl.DateTimeFormat('fr', { timeZone: 'Europe/Paris', weekday: 'long' }).format(new Date(slots[1]!.start));
    t.regex(inFrench.subject, new RegExp(`^Réservé: Pick a time, ${day}`), inFrench.subject);
    t.regex(inFrench.text, /\nAnnuler: http\S+action=cancel\nDéplacer: http\S+action=reschedule\n/);
    t.regex(inFrench.text, /Formulaire: Intro call/);
    t.regex(inFrench.calendar!.content.replace(/\r\n /g, ''), /Pour annuler ou déplacer cette réservation/);
    const owner = await mailTo(u.email, fr);
    t.regex(owner.subject, /^Booked by fr@example\.com: Pick a time/, 'the owner reads English');
    t.regex(owner.text, /\nCancel: http/);
    // Without a language sent, the form's default (English); the cancellation in the respondent's language too.
    const en = await book('en@example.com', slots[3]!.start);
    t.regex((await mailTo('en@example.com', en)).subject, /^Booked: Pick a time/);
    // The mail's links open the booking's page in French; cancelled from there.
    const link = new URL(/Annuler: (\S+)/.exec(inFrench.text)![1]!);
    t.is(link.searchParams.get('lang'), 'fr');
    t.true(/Cancel: (\S+)/.exec(owner.text)![1]!.includes('lang=') === false, "the owner's links open it in English");
    const page = await (await fetch(link.href.replace(/^https?:\/\/[^/]+/, app.url))).text();
    t.regex(page, /<html lang="fr">/);
    t.regex(page, /Annuler cette réservation/);
    t.regex(page, /Déplacer ma réservation/);
    const viaPage = await fetch(`${app.url}/bookings/${fr}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: link.searchParams.get('token')!, lang: 'fr', do: 'cancel' }) });
    t.regex(await viaPage.text(), /Votre réservation est annulée/);
    t.regex((await mailTo('fr@example.com', fr, 'CANCEL')).subject, /^Annulé: Pick a time/);
    t.truthy(form.id);
  });
}, { mailer, plugins: [caldavPlugin()], allowPrivateWebhooks: true });
