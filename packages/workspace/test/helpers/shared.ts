import avaTest from 'ava';
import type { Browser } from 'playwright-core';
import { startWorkspaceApp, type WorkspaceTestApp } from './app';
import { launchBrowser } from './browser';

/*
 * One workspace app and one browser connection for every part of an entry test file (docs/testing.md,
 * "Merged test files"): a part that needs an app with no configuration of its own (no adapters, no worker)
 * takes `sharedApp()`, every part takes `sharedBrowser()`. Each test still works under an owner, forms and
 * a browser context of its own, so the parts' tests stay as independent as they were in their own files; a
 * part that configures its app (telephony, payments, a blob store, plugins and the worker) keeps its own.
 * Both start on first use and close after the file's last test.
 */

let app: Promise<WorkspaceTestApp> | undefined;
let browser: Promise<Browser> | undefined;

export function sharedApp(): Promise<WorkspaceTestApp> {
  return (app ??= startWorkspaceApp('sqlite'));
}

export function sharedBrowser(): Promise<Browser> {
  return (browser ??= launchBrowser());
}

avaTest.after.always(async () => {
  // One that failed to start failed its tests already; there is nothing of it to close.
  await browser?.then((b) => b.close(), () => undefined);
  await app?.then((a) => a.close(), () => undefined);
});
