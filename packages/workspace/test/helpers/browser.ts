import type { Browser, BrowserContext, Page } from 'playwright-core';

export { axeViolations, launchBrowser } from '@formloom/test-browser';
export { pressTimes, tabTo, type Focused } from './tab-to';

/** A page that collects the errors its scripts throw or log (answers the test provoked aside). */
export async function openPage(browser: Browser, opts: { width?: number; cookie?: { name: string; value: string; url: string } } = {}): Promise<{ page: Page; context: BrowserContext; errors: string[]; close(): Promise<void> }> {
  const width = opts.width ?? 1280;
  const context = await browser.newContext({ viewport: { width, height: 900 }, ...(width < 500 ? { isMobile: true, hasTouch: true } : {}) });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => undefined);
  if (opts.cookie) await context.addCookies([{ name: opts.cookie.name, value: opts.cookie.value, url: opts.cookie.url }]);
  const page = await context.newPage();
  // Generous: the whole suite shares two cores with the other test files (tests wait for conditions, never time them).
  page.setDefaultTimeout(90_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  return { page, context, errors, close: () => context.close() };
}

/*
 * The browser's clipboard is one for all its pages. A test that copies and then pastes or reads it back holds it
 * from the one to the other (`withClipboard`), so the file's other tests go on beside it: such tests used to run
 * alone (`test.serial`), and the file waited for them one after the other.
 */
let clipboard: Promise<unknown> = Promise.resolve();

/** Runs `use` once no other test of the file holds the clipboard, and holds it until `use` ends. */
export function withClipboard<T>(use: () => Promise<T>): Promise<T> {
  const turn = clipboard.then(use, use);
  clipboard = turn.catch(() => undefined);
  return turn;
}

/**
 * Stops the page's clock (installed with `page.clock.install()` before the page loaded) until `page.clock.resume()`:
 * edits made meanwhile are one moment for the page (one typing step, one autosave), however long a busy machine
 * takes over them. `pauseAt` names a time ahead of the page's: the margin doubles when the machine took longer.
 */
export async function pauseClock(page: Page): Promise<void> {
  for (let ahead = 1000; ; ahead *= 2) {
    const at = (await page.evaluate(() => Date.now())) + ahead;
    try {
      return await page.clock.pauseAt(at);
    } catch (e) {
      if (!/to the past/.test(String(e)) || ahead >= 64_000) throw e;
    }
  }
}

/** The page's whole length as `<FORMLOOM_SHOTS>/<name>.png` when that variable names a folder; nothing without it. */
export async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.FORMLOOM_SHOTS;
  if (dir) await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}
