import { existsSync } from 'node:fs';
import { poolContexts } from './context-pool';
import type { Browser, BrowserContext, Download, Page } from 'playwright-core';

/*
 * The browser of Formloom's own browser tests (docs/testing.md): Debian's Chromium, headless and quiet (`.ci/run`
 * installs it), shared by the express, workspace and self-hosted test helpers.
 */

/**
 * Debian's `chromium-headless-shell` when installed, else `chromium` (`FORMLOOM_TEST_CHROMIUM` names another).
 * The shell is Chromium's headless build without the desktop browser's layers, what Playwright itself runs
 * headless: the same Blink and V8, at half the CPU for the same tests (docs/testing.md, "What it costs").
 */
export const CHROMIUM = chromiumPath();

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.FORMLOOM_TEST_CHROMIUM) return env.FORMLOOM_TEST_CHROMIUM;
  return ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((p) => existsSync(p)) ?? '/usr/bin/chromium';
}
export const CHROMIUM_ARGS = [
  '--headless',
  // V8's optimizing compilers off in the pages: a test's page lives for seconds, too short for optimized code to pay
  // for its compiling. A clean-clone run used about a tenth less of the browser's CPU (docs/testing.md, "The shared
  // browser"). The bench launches its own browser, with V8 as shipped.
  '--js-flags=--no-opt,--no-maglev',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/**
 * Where a test run's shared browser listens (`npm test` starts one, scripts/test.mjs and `serve.ts`): each
 * test file then connects to it instead of launching a Chromium of its own (docs/testing.md).
 */
export const SHARED_BROWSER_ENV = 'FORMLOOM_TEST_BROWSER_WS';

/**
 * A browser for one test file: a connection to the run's shared browser when there is one, else a Chromium of
 * its own. Either way the file's contexts are its own, and `close()` ends them (a connection's close ends
 * the contexts it made and disconnects; the shared browser goes on for the other files). A context a test
 * closes is emptied and handed to the file's next test that asks for the same options (context-pool.ts).
 */
export async function launchBrowser(): Promise<Browser> {
  // Loaded here, not on import: every express test file imports this package for `undecodedRequest`, and
  // playwright-core costs about 0.6 CPU-seconds to load in a file that drives no browser (docs/testing.md).
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const shared = process.env[SHARED_BROWSER_ENV];
  if (shared) {
    try {
      return poolContexts(steadyNavigation(await chromium.connect(shared, { timeout: 30_000 })));
    } catch (err) {
      console.warn(`The shared browser at ${shared} did not answer (${String(err).split('\n')[0]}); launching one for this file`);
    }
  }
  return poolContexts(steadyNavigation(await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS })));
}

/*
 * On a loaded CI machine Chromium once aborted every navigation of one browser for a while (`net::ERR_ABORTED`
 * on page.goto to two unrelated local servers, while the same servers answered other pages; docs/decisions.md,
 * "Session 9"). A navigation the browser aborted is tried again, a few times; any other failure, and a third
 * abort, fail the test as before.
 */
const ABORTED = /net::ERR_ABORTED/;
export const NAVIGATION_ATTEMPTS = 3;

function steadyPage(page: Page, steadied: WeakSet<Page>): Page {
  if (steadied.has(page)) return page;
  steadied.add(page);
  const goto = page.goto.bind(page);
  page.goto = async (url, opts) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await goto(url, opts);
      } catch (e) {
        if (attempt >= NAVIGATION_ATTEMPTS || !ABORTED.test(String(e)) || page.isClosed()) throw e;
        await new Promise((r) => setTimeout(r, 500 * attempt));
      }
    }
  };
  return page;
}

function steadyContext(context: BrowserContext, steadied: WeakSet<Page>): BrowserContext {
  context.on('page', (page) => steadyPage(page, steadied));
  const newPage = context.newPage.bind(context);
  context.newPage = async () => steadyPage(await newPage(), steadied);
  return context;
}

/** `browser` with every page it opens (in any context, popups included) trying aborted navigations again. */
export function steadyNavigation(browser: Browser): Browser {
  const steadied = new WeakSet<Page>();
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (opts) => steadyContext(await newContext(opts), steadied);
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (opts) => steadyPage(await newPage(opts), steadied);
  return browser;
}
/**
 * The bytes a page downloaded. `download.path()` exists only where the browser runs in the test's own process
 * tree; connected to the run's shared browser it throws, so the bytes are read from the download's stream,
 * which works either way.
 */
export async function downloadedBytes(download: Download): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}
export { undecodedRequest, type UndecodedAnswer } from './undecoded';
export { poolContexts } from './context-pool';
export { axeViolations } from './axe';
