import type { ExecutionContext, TestFn } from 'ava';
import { DB_KINDS, startTestApp, type DbKind, type TestApp } from './app';

/** What a part of an entry test file registers its tests with: `forEachDb` without the options. */
export type SharedDb = (
  register: (it: (title: string, fn: (t: ExecutionContext, app: TestApp) => Promise<void> | void) => void) => void,
) => void;

/**
 * One app per database for the parts of an entry test file that need no configuration of their own (a
 * `forEachDb` without options, docs/testing.md "Merged test files"): an app costs about 0.2 CPU-seconds to
 * start, and each part used to start two. The parts' tests share the databases as the tests of one
 * `forEachDb` always did: each works under users and forms of its own, none changes the app's settings or
 * starts its worker (a part that does keeps its own `forEachDb`).
 */
export function sharedApps(test: TestFn): SharedDb {
  const apps = new Map<DbKind, Promise<TestApp>>();
  const get = (kind: DbKind) => {
    let app = apps.get(kind);
    if (!app) apps.set(kind, (app = startTestApp(kind)));
    return app;
  };
  test.after.always(async () => {
    // An app that failed to start failed its tests already; there is nothing of it to close.
    await Promise.all([...apps.values()].map((app) => app.then((a) => a.close(), () => undefined)));
  });
  return (register) => {
    for (const kind of DB_KINDS) register((title, fn) => test(`[${kind}] ${title}`, async (t) => fn(t, await get(kind))));
  };
}
