import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser, poolContexts } from '../src';

/*
 * Contexts and pages are compared with `===` inside t.true: a failed t.is would have ava print the whole object
 * graph of a Playwright object.
 *
 * A context a test closes is handed to the next test that asks for the same options (src/context-pool.ts): the
 * next test must find it as a new one, with nothing of the test before it.
 */

const PAGE = `<!doctype html><title>pool</title><h1>Pool</h1>
<script>
  if (location.search === '?write') {
    document.cookie = 'c=1; path=/';
    localStorage.setItem('l', '1');
    sessionStorage.setItem('s', '1');
    const open = indexedDB.open('db', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('st');
    open.onsuccess = () => { open.result.transaction('st', 'readwrite').objectStore('st').put(1, 'k').onsuccess = () => (document.title = 'written'); };
  }
</script>`;

let server: Server;
let base: string;
let other: string;
let browser: Browser;

test.before(async () => {
  server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  other = `http://localhost:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  server?.close();
});

/** What the page at `base` holds: cookies, both storages, IndexedDB's databases. */
async function held(page: import('playwright-core').Page, at = base) {
  await page.goto(`${at}/read`);
  // A string: this package's TypeScript has no DOM types.
  return page.evaluate(`(async () => ({
    cookie: document.cookie,
    local: localStorage.length,
    session: sessionStorage.length,
    databases: (await indexedDB.databases()).map((d) => d.name),
  }))()`);
}

/** A context with `options` whose page wrote cookies and every storage at `base`. */
async function written(options: { viewport: { width: number; height: number } }) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await write(page, base);
  return { context, page };
}

async function write(page: import('playwright-core').Page, at: string) {
  await page.goto(`${at}/?write`);
  await page.waitForFunction("document.title === 'written'");
}

test.serial('a closed context comes back empty: storage, cookies, history, pages, listeners and routes', async (t) => {
  t.timeout(120_000);
  const options = { viewport: { width: 700, height: 600 } };
  const { context: first, page } = await written(options);
  // Another origin (localhost rather than 127.0.0.1) in the same tab: its session storage is the tab's too.
  await write(page, other);
  await page.goto(`${base}/second`);
  await first.grantPermissions(['clipboard-read']);
  await page.setViewportSize({ width: 400, height: 400 });
  const heard: string[] = [];
  page.on('console', (m) => heard.push(m.text()));
  let routed = 0;
  await page.route('**/routed', (route) => {
    routed++;
    return route.fulfill({ body: 'routed' });
  });
  await first.newPage(); // a second page, which the next test must not find
  await first.close();

  const again = await browser.newContext(options);
  t.true(again === first, 'the same options get the closed context back');
  t.is(again.pages().length, 1, 'only the kept page is open');
  const kept = await again.newPage();
  t.true(kept === page, 'its page is the kept one');
  t.true((await again.newPage()) !== page, 'a second page asked for in the same test is a new one');
  t.deepEqual(kept.viewportSize(), options.viewport, 'the viewport is the one the options give');
  t.is(kept.url(), 'about:blank');
  t.is(await kept.evaluate('history.length'), 1, 'no history from the test before');
  t.true((await kept.goBack()) === null);
  t.deepEqual(await held(kept, other), { cookie: '', local: 0, session: 0, databases: [] });
  t.deepEqual(await held(kept), { cookie: '', local: 0, session: 0, databases: [] });
  await kept.evaluate(() => console.log('after'));
  t.deepEqual(heard, [], "the test before's listeners hear nothing");
  await kept.goto(`${base}/routed`);
  t.is(routed, 0, "the test before's routes are gone");
  t.deepEqual(await again.cookies(), []);
  t.is(await kept.evaluate("navigator.permissions.query({ name: 'clipboard-read' }).then((p) => p.state)"), 'prompt', 'permissions are as new');
  await again.close();
});

test.serial('other options get a context of their own; a context a test changed for good is closed', async (t) => {
  t.timeout(120_000);
  const a = await browser.newContext({ viewport: { width: 500, height: 500 } });
  await a.newPage();
  await a.close();
  const b = await browser.newContext({ viewport: { width: 501, height: 500 } });
  t.true(b !== a);
  const page = await b.newPage();
  await page.addInitScript(() => ((globalThis as any).marked = true));
  let closed = false;
  b.on('close', () => (closed = true));
  await b.close();
  t.true(closed, 'a context with an init script is closed');
  const c = await browser.newContext({ viewport: { width: 501, height: 500 } });
  t.true(c !== b);
  const fresh = await c.newPage();
  await fresh.goto(base);
  t.false(await fresh.evaluate(() => 'marked' in globalThis));
  await c.close();
});

test.serial('a test that asks while a context with its options is being emptied gets that one, emptied', async (t) => {
  t.timeout(120_000);
  const options = { viewport: { width: 640, height: 480 } };
  const { context: first } = await written(options);
  const closing = first.close();
  const next = await browser.newContext(options);
  await closing;
  t.true(next === first);
  t.deepEqual(await held(await next.newPage()), { cookie: '', local: 0, session: 0, databases: [] });
  const [, again] = await Promise.all([next.close(), browser.newContext(options)]);
  t.true(again === first, 'and again, asked for while it is being closed');
  await again.close();
  await again.close(); // closed twice by the same test, as a \`finally\` and a teardown may
  const third = await browser.newContext(options);
  t.true(third === first, 'a second close leaves the context to the pool');
  const page = await third.newPage();
  t.false(page.isClosed());
  // What a later use writes is tracked and deleted as the first use's was.
  await write(page, base);
  await third.close();
  t.true((await browser.newContext(options)) === first);
  t.deepEqual(await held(await first.newPage()), { cookie: '', local: 0, session: 0, databases: [] });
});

test.serial("FORMLOOM_TEST_FRESH_CONTEXTS=1 closes every context, as Playwright's own newContext does", async (t) => {
  t.timeout(120_000);
  const own = async () => ({});
  const plain = { newContext: own } as unknown as Browser;
  t.is<unknown, unknown>(poolContexts(plain, { FORMLOOM_TEST_FRESH_CONTEXTS: '1' }).newContext, own, 'newContext is left as it was');
  const pooled = { newContext: own } as unknown as Browser;
  t.not<unknown, unknown>(poolContexts(pooled, {}).newContext, own, "without the variable, newContext is the pool's");
});
