import { randomBytes, randomFillSync } from 'node:crypto';
import type { IdGenerator } from './ports/id-generator';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/**
 * The clock part of an ordered id: milliseconds in base 36, digits then lower-case letters, 9 characters (enough
 * until the year 5188). Those characters sort in the same order byte by byte (SQLite) and under the usual
 * PostgreSQL collations, which compare mixed case letters by their letter first: base 62 would not.
 */
const CLOCK_DIGITS = 9;
const CLOCK_ALPHABET = ALPHABET.slice(0, 36);

/** The clock part of an ordered id made at `ms` (milliseconds since 1970). */
export function clockPart(ms: number): string {
  let s = '';
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < CLOCK_DIGITS; i++) {
    s = CLOCK_ALPHABET[t % 36]! + s;
    t = Math.floor(t / 36);
  }
  return s;
}

/**
 * Random ids: `<prefix>_` + 20 base62 characters (~119 bits). Ordered ids (`orderedId`) have the same shape: the
 * clock part (9 characters), then 11 random ones (~65 bits: unguessable, and unique among the ids of one
 * millisecond); they tell when they were made, which is why only rows that carry their time anyway get them.
 * `now` is the clock they read (a test's, or `Date.now`); it never goes back: a clock set back keeps the last value.
 */
export function randomIds(now: () => number = Date.now): IdGenerator {
  // Random bytes are drawn a pool at a time: one call into the CSPRNG per id cost more than the rest of an
  // id's making (a submission with webhooks makes several; docs/benchmarks.md, "Webhook deliveries"). Each byte is
  // used once.
  const pool = Buffer.allocUnsafe(20 * 128);
  let used = pool.length;
  const random = (length: number) => {
    if (used + length > pool.length) {
      randomFillSync(pool);
      used = 0;
    }
    let s = '';
    for (let i = used; i < used + length; i++) s += ALPHABET[pool[i]! % 62];
    used += length;
    return s;
  };
  let last = 0;
  return {
    id: (prefix) => `${prefix}_${random(20)}`,
    orderedId(prefix) {
      last = Math.max(last, now());
      return `${prefix}_${clockPart(last)}${random(20 - CLOCK_DIGITS)}`;
    },
    secret: (n) => randomBytes(n).toString('hex'),
  };
}
