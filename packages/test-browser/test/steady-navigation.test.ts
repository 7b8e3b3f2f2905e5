import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { launchBrowser, NAVIGATION_ATTEMPTS } from '../src';

/* A navigation the browser aborts (a 204 answer is one) is tried again; a page that loads is loaded once. */

test('an aborted navigation is tried again, up to the attempts, then fails as before', async (t) => {
  t.timeout(120_000);
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const n = (hits.get(req.url!) ?? 0) + 1;
    hits.set(req.url!, n);
    if (req.url === '/always' || (req.url === '/twice' && n <= 2)) {
      res.statusCode = 204;
      return res.end();
    }
    res.setHeader('content-type', 'text/html');
    res.end('<h1>Loaded</h1>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchBrowser();
  t.teardown(async () => {
    await browser.close();
    server.close();
  });
  const page = await (await browser.newContext()).newPage();
  t.is((await page.goto(`${base}/twice`))?.status(), 200);
  t.is(hits.get('/twice'), 3);
  await t.throwsAsync(() => page.goto(`${base}/always`), { message: /net::ERR_ABORTED/ });
  t.is(hits.get('/always'), NAVIGATION_ATTEMPTS);
  t.is((await page.goto(`${base}/once`))?.status(), 200);
  t.is(hits.get('/once'), 1);
});
