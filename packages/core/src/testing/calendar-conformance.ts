import type { TestFn } from 'ava';
import { CalendarError, type CalendarConnection, type Calendars } from '../ports/calendar';

/** An appointment the owner made in their calendar outside Formloom. Times ISO in UTC. */
export interface OwnerAppointment {
  uid: string;
  start: string;
  end: string;
  /** Marked free (TRANSP:TRANSPARENT): never busy. */
  transparent?: boolean;
  /** Repeats weekly this many times (RRULE:FREQ=WEEKLY;COUNT=n). */
  weekly?: number;
}

export interface CalendarHarness {
  /** Prefix of every test title. */
  name: string;
  calendars(): Calendars | Promise<Calendars>;
  /** A working connection to an empty calendar of its own. */
  connection(): CalendarConnection;
  /** The same account with a wrong password. */
  wrongPassword(): CalendarConnection;
  /** A URL where no server listens. */
  unreachable(): CalendarConnection;
  /** Puts an appointment into the connection's calendar by the server's own means. */
  addAppointment(a: OwnerAppointment): Promise<void>;
}

/** Each test works on a day of its own, far ahead, so tests sharing one calendar never see each other's events. */
const day = (n: number) => (hhmm: string) => `2031-03-${String(10 + n).padStart(2, '0')}T${hhmm}:00.000Z`;
const range = (d: (t: string) => string) => ({ start: d('00:00'), end: d('23:59') });

/**
 * The calendar port's contract (docs/booking.md): a connection test that tells a wrong password and an
 * unreachable server apart, busy times (owner's appointments and Formloom's events; transparent ones free;
 * recurrences expanded; merged, sorted and clipped), and events written by uid (a second write replaces the
 * first, a delete of a missing event is fine).
 */
export function calendarConformance(test: TestFn, harness: CalendarHarness) {
  const name = (s: string) => `${harness.name}: ${s}`;
  let made: Promise<Calendars> | undefined;
  const calendars = () => (made ??= Promise.resolve(harness.calendars()));

  test(name('test: finds the calendar; a wrong password and an unreachable server are told apart'), async (t) => {
    const c = await calendars();
    const info = await c.connect(harness.connection()).test();
    t.regex(info.url, /^https?:\/\//);
    const wrong = await t.throwsAsync(c.connect(harness.wrongPassword()).test(), { instanceOf: CalendarError });
    t.is(wrong!.code, 'unauthorized');
    const gone = await t.throwsAsync(c.connect(harness.unreachable()).test(), { instanceOf: CalendarError });
    t.is(gone!.code, 'unreachable');
  });

  test(name('putEvent, busyTimes, deleteEvent: an event is busy, a second write by uid moves it, a delete frees it'), async (t) => {
    const c = (await calendars()).connect(harness.connection());
    const d = day(1);
    const uid = `bkg_conf_${Math.random().toString(36).slice(2)}`;
    const ev = { uid, start: d('10:00'), end: d('10:30'), summary: 'Call, with; commas', description: 'Line one\nLine two', attendees: [{ email: 'ann@example.com', name: 'Ann' }] };
    await c.putEvent(ev);
    t.deepEqual(await c.busyTimes(range(d)), [{ start: d('10:00'), end: d('10:30') }]);
    await c.putEvent({ ...ev, start: d('14:00'), end: d('15:00') });
    t.deepEqual(await c.busyTimes(range(d)), [{ start: d('14:00'), end: d('15:00') }], 'the same uid is one event');
    await c.deleteEvent(uid);
    t.deepEqual(await c.busyTimes(range(d)), []);
    await t.notThrowsAsync(c.deleteEvent(uid), 'a missing event is not an error');
  });

  test(name("busyTimes: the owner's appointments merged and clipped; transparent ones free"), async (t) => {
    const c = (await calendars()).connect(harness.connection());
    const d = day(2);
    const u = () => `own_${Math.random().toString(36).slice(2)}`;
    await harness.addAppointment({ uid: u(), start: d('09:00'), end: d('10:00') });
    await harness.addAppointment({ uid: u(), start: d('09:30'), end: d('11:00') });
    await harness.addAppointment({ uid: u(), start: d('13:00'), end: d('13:15'), transparent: true });
    await harness.addAppointment({ uid: u(), start: d('16:00'), end: d('18:00') });
    t.deepEqual(await c.busyTimes(range(d)), [
      { start: d('09:00'), end: d('11:00') },
      { start: d('16:00'), end: d('18:00') },
    ]);
    t.deepEqual(await c.busyTimes({ start: d('10:30'), end: d('17:00') }), [
      { start: d('10:30'), end: d('11:00') },
      { start: d('16:00'), end: d('17:00') },
    ], 'clipped to the range');
  });

  test(name('busyTimes: a weekly appointment is busy in each week it repeats'), async (t) => {
    const c = (await calendars()).connect(harness.connection());
    const d = day(3);
    await harness.addAppointment({ uid: `own_w_${Math.random().toString(36).slice(2)}`, start: d('08:00'), end: d('08:45'), weekly: 3 });
    const week = (n: number, hhmm: string) => new Date(Date.parse(d(hhmm)) + n * 7 * 86_400_000).toISOString();
    t.deepEqual(await c.busyTimes({ start: week(2, '00:00'), end: week(2, '23:00') }), [{ start: week(2, '08:00'), end: week(2, '08:45') }]);
    t.deepEqual(await c.busyTimes({ start: week(3, '00:00'), end: week(3, '23:00') }), [], 'not after its last repeat');
  });
}
