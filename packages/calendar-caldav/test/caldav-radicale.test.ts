import test from 'ava';
import { calendarConformance } from '@formloom/core/testing';
import { caldavCalendars } from '../src/index';
import { Radicale } from '../src/testing';

// The CalDAV adapter against a real Radicale (Debian's package), started for this file.
let radicale: Radicale;
test.before(async () => {
  radicale = await Radicale.start({ owner: 'owner-pass' });
});
test.after.always(() => radicale?.close());

const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

calendarConformance(test, {
  name: 'caldav',
  calendars: () => caldavCalendars(),
  connection: () => ({ url: radicale.users.owner!.calendarUrl, username: 'owner', password: 'owner-pass' }),
  wrongPassword: () => ({ url: radicale.users.owner!.calendarUrl, username: 'owner', password: 'nope' }),
  unreachable: () => ({ url: 'http://127.0.0.1:9/owner/calendar/', username: 'owner', password: 'owner-pass' }),
  addAppointment: (a) =>
    radicale.putRaw(
      'owner',
      a.uid,
      [
        'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', 'BEGIN:VEVENT', `UID:${a.uid}`, `DTSTAMP:${stamp(new Date().toISOString())}`,
        `DTSTART:${stamp(a.start)}`, `DTEND:${stamp(a.end)}`, 'SUMMARY:Own appointment',
        ...(a.transparent ? ['TRANSP:TRANSPARENT'] : []), ...(a.weekly ? [`RRULE:FREQ=WEEKLY;COUNT=${a.weekly}`] : []),
        'END:VEVENT', 'END:VCALENDAR', '',
      ].join('\r\n'),
    ),
});

test('caldav: the server URL alone is enough (the calendar is discovered); the event is stored as iCalendar', async (t) => {
  const c = caldavCalendars().connect({ url: radicale.url, username: 'owner', password: 'owner-pass' });
  const info = await c.test();
  t.is(info.url, radicale.users.owner!.calendarUrl);
  t.is(info.name, "owner's calendar");
  await c.putEvent({ uid: 'bkg_stored', start: '2031-04-01T09:00:00.000Z', end: '2031-04-01T09:30:00.000Z', summary: 'Intro call', organizer: { email: 'owner@example.com' }, attendees: [{ email: 'ann@example.com', name: 'Ann' }] });
  const raw = await radicale.getRaw('owner', 'bkg_stored');
  t.regex(raw!, /DTSTART:20310401T090000Z/);
  t.regex(raw!, /ATTENDEE;CN="?Ann"?;ROLE=REQ-PARTICIPANT:mailto:ann@example.com/);
});

test('caldav: a URL that is not a calendar server is refused with a clear code', async (t) => {
  const c = caldavCalendars().connect({ url: `${radicale.url}nobody-here/`, username: 'owner', password: 'owner-pass' });
  const e = await t.throwsAsync(c.test());
  t.true(['not_found', 'unauthorized', 'refused'].includes((e as { code?: string }).code ?? ''), String(e?.message));
});
