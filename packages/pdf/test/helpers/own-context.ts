import type { ExecutionContext, TestFn } from 'ava';

/**
 * ava's `test` for a part of a merged test file (docs/testing.md, "Merged test files") whose `before` hook
 * sets `t.context`: ava keeps one context per file, so two such parts in one file would overwrite each
 * other's. Here the part's `before` hooks set a context of its own, and each of its tests gets a shallow copy
 * of it, as ava gives a file's tests. Only `test(...)` and `test.before(...)` are wrapped: the rest (serial, hooks after) is ava's and sees the
 * file's context.
 */
export function ownContext<Context>(anyTest: TestFn): TestFn<Context> {
  let context: unknown = {};
  const setUp = (t: ExecutionContext) =>
    new Proxy(t, {
      get: (target, key) => {
        if (key === 'context') return context;
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
      set: (target, key, value) => (key === 'context' ? ((context = value), true) : Reflect.set(target, key, value, target)),
    });
  const withContext =
    (implementation: (t: ExecutionContext, ...args: unknown[]) => unknown) =>
    (t: ExecutionContext, ...args: unknown[]) => {
      t.context = context !== null && typeof context === 'object' ? { ...context } : context;
      return implementation(t, ...args);
    };
  const test = (title: string, implementation: (t: ExecutionContext, ...args: unknown[]) => unknown, ...args: unknown[]) =>
    anyTest(title, withContext(implementation), ...args);
  const before = (implementation: (t: ExecutionContext) => unknown) => anyTest.before((t) => implementation(setUp(t)));
  return Object.assign(test, {
    before,
    serial: anyTest.serial,
    after: anyTest.after,
    beforeEach: anyTest.beforeEach,
    afterEach: anyTest.afterEach,
    failing: anyTest.failing,
    only: anyTest.only,
    skip: anyTest.skip,
    todo: anyTest.todo,
    macro: anyTest.macro,
    meta: anyTest.meta,
  }) as unknown as TestFn<Context>;
}
