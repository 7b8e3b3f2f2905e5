import type { BookingCallRecord } from '../../ports/storage';
import { at, type StorageTest, uid } from './fixtures';

const call = (over: Partial<BookingCallRecord> = {}): BookingCallRecord => ({
  booking_id: uid('bkg'), owner_id: uid('usr'), form_id: uid('frm'), state: 'pending', outcome: null, reason: null, to_number: '+33612345678',
  call_id: null, generation_id: null, audio_token_hash: null, audio_expires_at: null, created_at: at(1), updated_at: at(1), ...over,
});

/** booking calls (docs/booking.md, "Confirmation calls"): one call per booking, conditional moves, one outcome, a trail without repeats. */
export function bookingCallTests(test: StorageTest): void {
  test('booking calls: one per booking; moves only from the state named; one outcome; each trail key once', async (t, db) => {
    const c = db.storage.bookingCalls;
    const x = call();
    t.true(await c.insert(x));
    t.false(await c.insert({ ...x, to_number: '+33600000000' }), 'never two calls for one booking');
    t.is((await c.findByBooking(x.booking_id))!.to_number, '+33612345678');
    const [a, b] = await Promise.all([
      c.advance(x.booking_id, 'pending', { state: 'placing', audio_token_hash: 'h1', updated_at: at(2) }),
      c.advance(x.booking_id, 'pending', { state: 'placing', audio_token_hash: 'h2', updated_at: at(2) }),
    ]);
    t.is(Number(a) + Number(b), 1, 'one worker places it');
    t.true(await c.advance(x.booking_id, 'placing', { state: 'calling', call_id: 'CA1', updated_at: at(3) }));
    t.like(await c.findByCallId('CA1'), { booking_id: x.booking_id, state: 'calling' });
    t.truthy(await c.findByAudioToken(a ? 'h1' : 'h2'));
    t.is(await c.findByAudioToken('nope'), null);
    const settled = await Promise.all([c.settle(x.booking_id, 'confirmed', null, at(4)), c.settle(x.booking_id, 'no_answer', 'no_choice', at(4))]);
    t.deepEqual(settled.filter(Boolean).length, 1, 'one outcome');
    t.is((await c.findByBooking(x.booking_id))!.state, 'done');
    const event = (key: string, n: number) => ({ id: uid('bev'), booking_id: x.booking_id, key, kind: 'keypad', detail: { n }, at: at(n) });
    t.true(await c.addEvent(event('call.keypad.2', 5)));
    t.false(await c.addEvent(event('call.keypad.2', 6)), 'a repeated callback adds nothing');
    t.true(await c.addEvent(event('call.status.completed', 7)));
    t.deepEqual((await c.events(x.booking_id)).map((e) => [e.key, e.detail.n]), [['call.keypad.2', 5], ['call.status.completed', 7]]);
    t.deepEqual((await c.forBookings([x.booking_id, uid('bkg')])).map((r) => r.booking_id), [x.booking_id]);
    t.deepEqual(await c.forBookings([]), []);
  });
}
