import type { Browser, BrowserContext, BrowserContextOptions, CDPSession, Dialog, Page } from 'playwright-core';

/*
 * A test file's browser contexts, used again (docs/testing.md, "Contexts used again"). A new context with its first
 * page and navigation costs the browser about 120 ms of CPU more than navigating a page it already has, and
 * axe-core's source costs about 130 ms more to evaluate in a new renderer than in one that evaluated it before:
 * a context a test closes is emptied and kept for the file's next test that asks for one with the same options.
 *
 * Emptied means: the test's other pages closed, its listeners and routes removed, the kept page on about:blank with
 * no history, and for every origin its pages showed, cookies, local and session storage, IndexedDB, cache storage
 * and service workers deleted, with the HTTP cache and permissions. A test that changed what cannot be undone (an
 * init script, an exposed function, the page's clock, emulated media, extra headers, a geolocation) gets its
 * context closed as before, and so does any context whose emptying fails. FORMLOOM_TEST_FRESH_CONTEXTS=1 closes
 * every context, as Playwright does.
 */

/** Playwright's defaults, restored on a kept page (a test may have set its own). */
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_VIEWPORT = { width: 1280, height: 720 };
/** Past this, a context that is still being emptied is closed instead. */
const EMPTYING_MS = 20_000;

type Listener = (...args: any[]) => void;
interface Emitter {
  eventNames(): (string | symbol)[];
  listeners(event: string | symbol): Function[];
  removeListener(event: string | symbol, listener: Listener): unknown;
}

interface Kept {
  key: string;
  options: BrowserContextOptions;
  context: BrowserContext;
  close: BrowserContext['close'];
  newPage: BrowserContext['newPage'];
  /** The page the next test gets first; null until one asks. */
  page: Page | null;
  cdp: CDPSession | null;
  /** Origins the context's pages showed since it was last emptied (their storage is deleted). */
  origins: Set<string>;
  /** Why the context must be closed rather than kept; null while it can be kept. */
  spoilt: string | null;
  /** The context's and the kept page's listeners when they were made (the pool's own): the rest are the tests'. */
  ownListeners: Map<Emitter, Map<string | symbol, Function[]>>;
  /** Whether a test asked for a page in this use of the context yet. */
  pageGiven: boolean;
  /** Whether a test waits for this context's emptying, to have it next. */
  claimed: boolean;
  /** Whether a test has the context (it asked for it and has not closed it). */
  leased: boolean;
}

const CONTEXT_SPOILERS = ['addInitScript', 'exposeBinding', 'exposeFunction', 'routeFromHAR', 'routeWebSocket', 'setExtraHTTPHeaders', 'setGeolocation', 'setHTTPCredentials'] as const;
const PAGE_SPOILERS = ['addInitScript', 'exposeBinding', 'exposeFunction', 'routeFromHAR', 'routeWebSocket', 'emulateMedia', 'setExtraHTTPHeaders'] as const;
const CLOCK_METHODS = ['install', 'fastForward', 'pauseAt', 'resume', 'runFor', 'setFixedTime', 'setSystemTime'] as const;

/** `browser` with `newContext` handing out emptied contexts its tests closed, when their options are the same. */
export function poolContexts(browser: Browser, env: NodeJS.ProcessEnv = process.env): Browser {
  if (env.FORMLOOM_TEST_FRESH_CONTEXTS === '1') return browser;
  const pool: Pool = { idle: [], emptying: new Map() };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options = {}) => {
    const key = JSON.stringify(options);
    // A context with these options that a test just closed is worth the wait of its emptying (tens of milliseconds).
    for (const [kept, emptied] of pool.emptying) if (kept.key === key && !kept.claimed) {
      kept.claimed = true;
      if (await emptied) return handOut(pool, kept);
    }
    const kept = pool.idle.find((k) => k.key === key);
    if (kept) return handOut(pool, kept);
    return keep(await newContext(options), key, options, pool);
  };
  return browser;
}

interface Pool {
  idle: Kept[];
  /** Contexts being emptied, each with whether it can be used again. */
  emptying: Map<Kept, Promise<boolean>>;
}

function handOut(pool: Pool, kept: Kept): BrowserContext {
  pool.idle = pool.idle.filter((k) => k !== kept);
  kept.pageGiven = false;
  kept.claimed = false;
  kept.leased = true;
  return kept.context;
}

function keep(context: BrowserContext, key: string, options: BrowserContextOptions, pool: Pool): BrowserContext {
  const kept: Kept = {
    key,
    options,
    context,
    close: context.close.bind(context),
    newPage: context.newPage.bind(context),
    page: null,
    cdp: null,
    origins: new Set(),
    spoilt: null,
    ownListeners: new Map(),
    pageGiven: false,
    claimed: false,
    leased: true,
  };
  const spoil = (owner: object, names: readonly string[], why: string) => {
    for (const name of names) {
      const original = (owner as any)[name] as Function | undefined;
      if (typeof original !== 'function') continue;
      (owner as any)[name] = (...args: unknown[]) => {
        kept.spoilt ??= `${why}.${name}`;
        return original.apply(owner, args);
      };
    }
  };
  spoil(context, CONTEXT_SPOILERS, 'context');
  spoil(context.clock, CLOCK_METHODS, 'clock');
  // Every page's, the kept one's too: Playwright tells of a page before newPage gives it, so this listener is on
  // the kept page when its own listeners are taken as the pool's.
  context.on('page', (page) => page.on('framenavigated', (frame) => showed(kept, frame.url())));
  context.on('close', () => (kept.spoilt ??= 'closed'));
  context.newPage = async () => {
    if (kept.pageGiven || (kept.page && kept.page.isClosed())) return kept.newPage();
    kept.pageGiven = true;
    if (kept.page) return kept.page;
    const page = await kept.newPage();
    spoil(page, PAGE_SPOILERS, 'page');
    page.on('crash', () => (kept.spoilt ??= 'crashed'));
    kept.page = page;
    kept.cdp = await context.newCDPSession(page);
    kept.ownListeners.set(page as unknown as Emitter, listenersOf(page as unknown as Emitter));
    return page;
  };
  kept.ownListeners.set(context as unknown as Emitter, listenersOf(context as unknown as Emitter));
  context.close = async (closeOptions) => {
    // Closed again by the test that closed it (a `finally` and a teardown): as with Playwright's, nothing more.
    if (!kept.leased) return void (await pool.emptying.get(kept));
    kept.leased = false;
    if (kept.spoilt || !kept.page || kept.page.isClosed()) return kept.close(closeOptions);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('emptying took too long')), EMPTYING_MS)));
    const emptied = Promise.race([empty(kept), late]).then(
      () => true,
      async () => {
        await kept.close(closeOptions).catch(() => undefined);
        return false;
      },
    );
    pool.emptying.set(kept, emptied);
    const usable = await emptied;
    clearTimeout(timer);
    pool.emptying.delete(kept);
    // Unless a test waiting for it took it meanwhile.
    if (usable && !kept.claimed) pool.idle.push(kept);
  };
  return context;
}

function showed(kept: Kept, url: string): void {
  const origin = originOf(url);
  if (origin) kept.origins.add(origin);
}

function listenersOf(emitter: Emitter): Map<string | symbol, Function[]> {
  return new Map(emitter.eventNames().map((name) => [name, [...emitter.listeners(name)]]));
}

/** Removes the listeners a test added, keeping the pool's own. */
function removeTestListeners(emitter: Emitter, own: Map<string | symbol, Function[]>): void {
  for (const name of emitter.eventNames()) {
    const ours = own.get(name) ?? [];
    for (const listener of emitter.listeners(name)) if (!ours.includes(listener)) emitter.removeListener(name, listener as Listener);
  }
}

/** Leaves the context as a new one with its first page, or throws (the context is then closed). */
async function empty(kept: Kept): Promise<void> {
  const { context, page, cdp } = kept;
  if (!page || !cdp) throw new Error('no kept page');
  await Promise.all(context.pages().filter((p) => p !== page).map((p) => p.close()));
  for (const [emitter, own] of kept.ownListeners) removeTestListeners(emitter, own);
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  // A page that asks before it is left (beforeunload) is left anyway.
  const leave = (dialog: Dialog) => void dialog.accept().catch(() => undefined);
  page.on('dialog', leave);
  try {
    await page.goto('about:blank');
  } finally {
    page.off('dialog', leave);
  }
  if (kept.spoilt) throw new Error(kept.spoilt);
  // 'all' takes the tab's session storage of the origin too, which no other call here reaches.
  for (const origin of kept.origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
  kept.origins.clear();
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Page.resetNavigationHistory');
  await context.clearCookies();
  await context.clearPermissions();
  await context.setOffline(false);
  const viewport = kept.options.viewport === undefined ? DEFAULT_VIEWPORT : kept.options.viewport;
  const now = page.viewportSize();
  if (viewport && (now?.width !== viewport.width || now?.height !== viewport.height)) await page.setViewportSize(viewport);
  page.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
  page.setDefaultNavigationTimeout(DEFAULT_TIMEOUT_MS);
  context.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
  context.setDefaultNavigationTimeout(DEFAULT_TIMEOUT_MS);
  await page.mouse.move(0, 0);
}

function originOf(url: string): string | null {
  try {
    const { origin } = new URL(url);
    return origin.startsWith('http') ? origin : null;
  } catch {
    return null; // about:blank, data: and the like hold no storage of their own.
  }
}
