import test from 'ava';
import { clockPart, orderedId, randomIds, type IdGenerator } from '../../src';

/*
 * Ids (docs/decisions.md, "Ids"): random ones, and ordered ones for rows written many a second, whose later ids sort
 * after earlier ones byte by byte and in PostgreSQL's usual collations alike.
 */

const SHAPE = /^rsp_[0-9a-zA-Z]{20}$/;

test('ordered ids keep the shape of random ids, and sort by the time they were made, byte by byte', (t) => {
  let now = Date.UTC(2026, 11, 7, 1, 0, 0);
  const ids = randomIds(() => now);
  const made: string[] = [];
  for (let i = 0; i < 200; i++) {
    made.push(ids.orderedId!('rsp'));
    if (i % 3 === 0) now += 1 + (i % 7) * 997;
  }
  for (const id of made) t.regex(id, SHAPE);
  t.regex(ids.id('rsp'), SHAPE);
  t.is(new Set(made).size, made.length, 'unique, also within one millisecond');
  // Ids of different milliseconds compare by their clock part whatever the random part.
  const clocks = made.map((id) => id.slice(4, 13));
  t.deepEqual([...clocks].sort(), clocks, 'the clock parts are in the order made');
  const byteOrder = [...made].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : Buffer.from(a) > Buffer.from(b) ? 1 : 0));
  t.deepEqual(byteOrder.map((id) => id.slice(4, 13)), clocks);
  // Lower-case letters and digits only in the clock part: case-insensitive collations order it the same way.
  const folded = [...made].sort((a, b) => a.slice(4, 13).toLowerCase().localeCompare(b.slice(4, 13).toLowerCase(), 'en'));
  t.deepEqual(folded.map((id) => id.slice(4, 13)), clocks);
});

test('a clock set back does not make an ordered id sort before the ones already made', (t) => {
  let now = Date.UTC(2026, 11, 7, 1, 0, 0);
  const ids = randomIds(() => now);
  const first = ids.orderedId!('obx');
  now -= 60_000;
  const second = ids.orderedId!('obx');
  t.is(second.slice(4, 13), first.slice(4, 13), 'the last clock value is kept');
  now += 120_000;
  t.true(ids.orderedId!('obx').slice(4, 13) > first.slice(4, 13));
});

test('the clock part is fixed-width base 36, in the order of the times', (t) => {
  t.is(clockPart(0), '000000000');
  t.is(clockPart(35), '00000000z');
  t.is(clockPart(36), '000000010');
  const times = [Date.UTC(2000, 0, 1), Date.UTC(2026, 11, 7), Date.UTC(2099, 0, 1), Date.UTC(4000, 0, 1)];
  const parts = times.map(clockPart);
  t.deepEqual([...parts].sort(), parts);
  for (const p of parts) t.is(p.length, 9);
});

test('a generator without orderedId (a host\'s own) still gives ids through orderedId()', (t) => {
  const own: IdGenerator = { id: (prefix) => `${prefix}_own`, secret: () => 'x' };
  t.is(orderedId(own, 'rsp'), 'rsp_own');
  t.regex(orderedId(randomIds(), 'rsp'), SHAPE);
});
