import type { ExecutionContext, TestFn } from 'ava';

/**
 * ava's `test` for the parts of a merged test file (docs/testing.md, "Merged test files"): an entry imports its
 * parts from a folder, and ava starts every concurrent test of a file at once. The tests of the returned `test`
 * wait for one of `atOnce` places, taken for the test's implementation (a teardown runs after it). Serial tests,
 * hooks and the rest are ava's own: serial tests run one at a time before the concurrent ones anyway. Each
 * package's test helpers choose `atOnce` for what its tests hold (PostgreSQL connections, browser pages).
 */
export function boundedTest(test: TestFn, atOnce: number): TestFn {
  const { enter, leave } = places(atOnce);
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

/**
 * `atOnce` places, taken by `enter` (waiting for one when all are taken) and given back by `leave`: the place
 * goes to the next waiting caller as it is, or back to the pool.
 */
export function places(atOnce: number): { enter: () => Promise<void>; leave: () => void } {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async enter() {
      if (running < atOnce) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
    },
    leave() {
      const next = waiting.shift();
      if (next) next();
      else running--;
    },
  };
}
