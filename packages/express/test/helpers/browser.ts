import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { waitFor } from '@formloom/core/testing';

export { axeViolations, launchBrowser } from '@formloom/test-browser';

/** A page that fails the test on any error the page's scripts throw or log. */
export async function openPage(browser: Browser, opts: { width?: number } = {}): Promise<{ page: Page; errors: string[]; close(): Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1000, height: 800 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    // Failed requests the test provoked on purpose (offline, 4xx answers) are logged by the browser.
    if (m.type() === 'error' && !/Failed to load resource|ERR_INTERNET_DISCONNECTED/.test(m.text())) errors.push(m.text());
  });
  return { page, errors, close: () => context.close() };
}

/** A second local site (another origin: another host and port) serving `site.html` at `/`. */
export async function hostSite(): Promise<{ url: string; html: string; close(): Promise<void> }> {
  const site = { html: '' } as { url: string; html: string; close(): Promise<void> };
  const server: Server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html; charset=utf-8');
    res.end(site.html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  // `localhost` rather than 127.0.0.1: a different host as well as a different port.
  site.url = `http://localhost:${(server.address() as AddressInfo).port}`;
  site.close = () => new Promise<void>((r) => server.close(() => r()));
  return site;
}

/** A webhook receiver on loopback recording every delivery. */
export async function webhookReceiver(): Promise<{ url: string; bodies: any[]; close(): Promise<void> }> {
  const bodies: any[] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      bodies.push(JSON.parse(data));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Whether `check` comes to hold, polled (the shared `waitFor`) for up to `tries` tenths of a second. */
export async function eventually(check: () => boolean | Promise<boolean>, tries = 600): Promise<boolean> {
  return waitFor(check, { timeoutMs: tries * 100, intervalMs: 100 }).then(
    () => true,
    () => false,
  );
}

/**
 * Screenshots of the page's current state at 390 and 1280 px wide, into the folder the environment variable `env`
 * names (e.g. `PAYMENT_SHOTS=/tmp/shots`); nothing without it. The page's own size is restored after.
 */
export async function shotsAtBothWidths(page: Page, env: string, name: string): Promise<void> {
  const dir = process.env[env];
  if (!dir) return;
  const size = page.viewportSize()!;
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: size.height });
    await page.screenshot({ path: `${dir}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(size);
}
