import type { BookingRecord } from '../../ports/storage';
import { at, type StorageTest, uid } from './fixtures';

const T = (hhmm: string) => `2031-05-05T${hhmm}:00.000Z`;

const booking = (over: Partial<BookingRecord> = {}): BookingRecord => ({
  id: uid('bkg'),
  owner_id: uid('usr'),
  form_id: uid('frm'),
  question_id: uid('q'),
  response_id: null,
  status: 'held',
  start: T('10:00'),
  end: T('10:30'),
  timezone: 'Europe/Paris',
  held_until: T('09:10'),
  manage_token_hash: null,
  rescheduled_from: null,
  created_at: at(1),
  updated_at: at(1),
  ...over,
});

/** bookings (docs/booking.md): one booking per slot (overlaps included) under concurrency, lapsed holds, cancel, connections. */
export function bookingTests(test: StorageTest): void {
  test('bookings: take refuses any overlap in the owner\'s calendar, not in another owner\'s', async (t, db) => {
    const b = db.storage.bookings;
    const owner = uid('usr');
    const first = booking({ owner_id: owner });
    t.true(await b.take(first, T('09:00')));
    t.false(await b.take(booking({ owner_id: owner, start: T('10:25'), end: T('11:00') }), T('09:00')), 'overlaps its last 5 minutes');
    t.false(await b.take(booking({ owner_id: owner, start: T('09:00'), end: T('12:00') }), T('09:00')), 'contains it');
    t.true(await b.take(booking({ owner_id: owner, start: T('10:30'), end: T('11:00') }), T('09:00')), 'right after it');
    t.true(await b.take(booking({ start: T('10:00'), end: T('10:30') }), T('09:00')), 'another owner');
    t.like(await b.findById(first.id), { status: 'held', start: T('10:00'), end: T('10:30') });
    t.deepEqual((await b.taken(owner, { start: T('00:00'), end: T('23:00') }, T('09:00'))).sort((x, y) => x.start.localeCompare(y.start)), [
      { start: T('10:00'), end: T('10:30') },
      { start: T('10:30'), end: T('11:00') },
    ]);
  });

  test('bookings: of 8 concurrent takes of one slot exactly one wins, and a refused one wrote nothing', async (t, db) => {
    const owner = uid('usr');
    const tries = Array.from({ length: 8 }, () => booking({ owner_id: owner }));
    const wins = await Promise.all(tries.map((x) => db.storage.bookings.take(x, T('09:00'))));
    t.is(wins.filter(Boolean).length, 1);
    for (const [i, x] of tries.entries()) t.is(!!(await db.storage.bookings.findById(x.id)), wins[i]);
  });

  test('bookings: a lapsed hold keeps its slot until another takes it; then it is expired and cannot be confirmed', async (t, db) => {
    const b = db.storage.bookings;
    const owner = uid('usr');
    const lapsedKept = booking({ owner_id: owner, held_until: T('09:10') });
    t.true(await b.take(lapsedKept, T('09:00')));
    t.deepEqual(await b.taken(owner, { start: T('00:00'), end: T('23:00') }, T('09:20')), [], 'a lapsed hold is free in the slot list');
    t.true(await b.confirm(lapsedKept.id, { response_id: uid('rsp'), manage_token_hash: 'h', updated_at: T('09:20') }), 'nobody took it: confirmed');
    t.false(await b.confirm(lapsedKept.id, { response_id: uid('rsp'), manage_token_hash: 'h', updated_at: T('09:20') }), 'once');
    const lapsed = booking({ owner_id: owner, start: T('12:00'), end: T('12:30'), held_until: T('09:10') });
    t.true(await b.take(lapsed, T('09:00')));
    t.true(await b.take(booking({ owner_id: owner, start: T('12:15'), end: T('12:45') }), T('09:20')));
    t.like(await b.findById(lapsed.id), { status: 'expired' });
    t.false(await b.confirm(lapsed.id, { response_id: uid('rsp'), manage_token_hash: 'h', updated_at: T('09:20') }));
  });

  test('bookings: cancel frees the slot once; forResponses lists confirmed bookings', async (t, db) => {
    const b = db.storage.bookings;
    const owner = uid('usr');
    const x = booking({ owner_id: owner });
    t.true(await b.take(x, T('09:00')));
    const response_id = uid('rsp');
    t.true(await b.confirm(x.id, { response_id, manage_token_hash: 'hash', updated_at: T('09:05') }));
    t.like((await b.forResponses([response_id, uid('rsp')]))[0], { id: x.id, status: 'confirmed', manage_token_hash: 'hash', held_until: null });
    t.true(await b.cancel(x.id, T('09:30')));
    t.false(await b.cancel(x.id, T('09:31')));
    t.deepEqual(await b.forResponses([response_id]), []);
    t.true(await b.take(booking({ owner_id: owner }), T('09:40')), 'the slot is free again');
  });

  test('bookings: calendar connections are put, replaced, read and deleted', async (t, db) => {
    const b = db.storage.bookings;
    const user_id = uid('usr');
    const c = { user_id, url: 'https://dav.example/cal/', username: 'me', password_sealed: 'v1.x', calendar_url: 'https://dav.example/cal/work/', calendar_name: 'Work', created_at: at(1), updated_at: at(1) };
    await b.putConnection(c);
    await b.putConnection({ ...c, username: 'me2', calendar_name: null, updated_at: at(2) });
    t.deepEqual(await b.connectionOf(user_id), { ...c, username: 'me2', calendar_name: null, updated_at: at(2) });
    t.true(await b.deleteConnection(user_id));
    t.false(await b.deleteConnection(user_id));
    t.is(await b.connectionOf(user_id), null);
  });
}
