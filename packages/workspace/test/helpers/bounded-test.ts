import avaTest, { type ExecutionContext, type TestFn } from 'ava';

/**
 * How many concurrent tests of a workspace entry run at a time: each drives a page of the browser. A file used
 * to run its tests one after the other (`test.serial`), so an entry merged from ten would take the sum of their
 * times. At three, four entries at once (`npm test`'s concurrency) drove twelve pages on the two cores, and
 * tests that race the page's clock (a typing step, a notice's duration) lost; two keep it at eight
 * (docs/testing.md, "Merged test files").
 */
export const PAGES_AT_ONCE = 2;

/**
 * ava's `test` for the parts of a merged test file, as packages/express/test/helpers/bounded-test.ts: its
 * concurrent tests wait for one of `atOnce` places, taken for the test's implementation. Serial tests (kept
 * where a test must be alone, such as the clipboard, which the browser shares between its pages), hooks and
 * the rest are ava's own: serial tests run one at a time before the concurrent ones.
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
const test: TestFn = boundedTest(avaTest, PAGES_AT_ONCE);
export default test;
