import avaTest, { type ExecutionContext, type TestFn } from 'ava';

/**
 * How many concurrent tests of a merged test file run at a time. ava starts every concurrent test of a file at
 * once: a file merged from ten used to be ten processes of which four ran at a time, and all of its tests'
 * apps at once would hold more PostgreSQL connections (five per pool) than the server's 100 ("sorry, too many
 * clients already" under a full run). At eight, auth.test.ts alone held 21 connections and four such files
 * at once would pass the 100; four keeps a file near ten.
 */
export const MERGED_TESTS_AT_ONCE = 4;

/**
 * ava's `test` for the parts of a merged test file (docs/testing.md, "Merged test files"): its concurrent tests
 * wait for one of `atOnce` places, taken for the test's implementation (a teardown runs after it). Serial
 * tests, hooks and the rest are ava's own: serial tests run one at a time before the concurrent ones anyway.
 */
export function boundedTest(test: TestFn, atOnce: number): TestFn {
  let running = 0;
  const waiting: Array<() => void> = [];
  const enter = async () => {
    if (running < atOnce) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  // The place goes to the next waiting test as it is, or back to the pool.
  const leave = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  const bounded = (title: string, implementation: (t: ExecutionContext, ...args: unknown[]) => unknown, ...args: unknown[]) =>
    test(title, async (t) => {
      await enter();
      try {
        return await implementation(t, ...args);
      } finally {
        leave();
      }
    });
  return Object.assign(bounded, {
    serial: test.serial,
    before: test.before,
    after: test.after,
    beforeEach: test.beforeEach,
    afterEach: test.afterEach,
    failing: test.failing,
    only: test.only,
    skip: test.skip,
    todo: test.todo,
    macro: test.macro,
    meta: test.meta,
  }) as unknown as TestFn;
}

/** The one bounded `test` of a test file's process, which every part of the file imports. */
const test: TestFn = boundedTest(avaTest, MERGED_TESTS_AT_ONCE);
export default test;
