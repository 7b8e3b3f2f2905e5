import avaTest, { type ExecutionContext, type TestFn } from 'ava';
import test from '../helpers/bounded-test';
import type { TestApp } from '../helpers/app';
import { places } from '@formloom/core/testing';

/*
 * What the parts of voice.test.ts share beyond helpers/voice.ts: `oneAtATime` and `ledgerKinds`.
 *
 * Parts of voice.test.ts whose tests share module state (a clock they move, a gate, a stall hook, a pool
 * whose processes a test kills, a count of syntheses) need their tests one at a time. ava's `test.serial`
 * ran every serial test of the file in one line before any other test: 8 such parts, 51 tests, about 90 of
 * the file's 134 s of wall time in the quiet full run of 2026-12-06 (c6), mostly waiting for requests,
 * engine processes and the database while the machine had cores to spare. `oneAtATime()` gives each such part
 * a `test` of its own whose tests run one after another, beside the file's other tests and other parts.
 */

/**
 * How many one-at-a-time tests of the file run at once (each of another part), besides the file's bounded
 * concurrent tests (`MERGED_TESTS_AT_ONCE`, four): each uses a few PostgreSQL connections of its part's app,
 * so that the file stays far under the server's 100 with three other files running.
 */
export const PARTS_AT_ONCE = 3;

// The file's places for one-at-a-time tests, shared by all its parts: one set per test process (per file).
const partPlaces = places(PARTS_AT_ONCE);

type Implementation = (t: ExecutionContext, ...args: unknown[]) => unknown;

/**
 * A `test` for one part: its tests run one at a time, in the order ava starts them (the order declared), each
 * once the previous one has ended, passed or failed. A test takes one of the `PARTS_AT_ONCE` places only when
 * its turn has come, so a test waiting for its turn holds no place another part could use. Its hooks and
 * modifiers are the file's bounded `test`'s; the parts use none of them for their tests (no teardown either:
 * ava would run it after the next test had started).
 */
export function oneAtATime(): TestFn {
  let last: Promise<void> = Promise.resolve();
  const register = (title: string, implementation: Implementation, ...args: unknown[]) =>
    avaTest(title, async (t) => {
      const previous = last;
      let done!: () => void;
      last = new Promise<void>((resolve) => (done = resolve));
      try {
        await previous;
        await partPlaces.enter();
        try {
          return await implementation(t, ...args);
        } finally {
          partPlaces.leave();
        }
      } finally {
        done();
      }
    });
  return Object.assign(register, test) as unknown as TestFn;
}

const KIND_ORDER = ['purchase', 'spend', 'credit_back'];

/**
 * The kinds of the user's ledger entries in the ledger's order, except that entries made in the same millisecond
 * come spend before credit-back: the ledger orders those by id, which is random, and a generation that fails at
 * once (an engine that does not start, a voice that breaks) often writes its spend and its credit-back in the
 * same millisecond on SQLite (the file failed on it in 4 of 11 runs at a load of 7-28).
 */
export async function ledgerKinds(app: TestApp, userId: string): Promise<string[]> {
  const entries = await app.formloom.storage.credits.entries(userId);
  const rank = (kind: string) => KIND_ORDER.indexOf(kind);
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => (a.entry.created_at === b.entry.created_at ? rank(a.entry.kind) - rank(b.entry.kind) : a.index - b.index))
    .map(({ entry }) => entry.kind);
}
