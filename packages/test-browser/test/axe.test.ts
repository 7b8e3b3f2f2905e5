import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser } from '../src';

/*
 * The audit every browser test relies on (src/axe.ts): a page with broken rules must be named as broken, element by
 * element and through shadow roots, or every accessibility check of the suite would pass for nothing.
 */

const CLEAN = `<!doctype html><html lang="en"><head><title>Clean</title></head><body><main><h1>A form</h1>
<label for="n">Name</label><input id="n"><button>Send</button></main></body></html>`;

const BROKEN = `<!doctype html><html lang="en"><head><title>Broken</title><link rel="stylesheet" href="/page.css"></head><body><main><h1>A form</h1>
<img src="/pixel.png"><button id="empty"></button><fl-field></fl-field>
<script src="/field.js"></script></main></body></html>`;

// A field in a shadow root with no label: axe's target for it is a path through the shadow root. The root's style
// element is one axe's style sheet preload would rebuild inline, against the page's CSP.
const FIELD = `customElements.define('fl-field', class extends HTMLElement {
  connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<style nonce="n0nce">input { font: inherit; }</style><input id="inner" type="text">'; }
});`;

let browser: Browser;
let base = '';
const server = createServer((req, res) => {
  // The pages' own kind of policy: styles from the origin or with the page's nonce, no inline script.
  res.setHeader('content-security-policy', "default-src 'self'; style-src 'self' 'nonce-n0nce'");
  if (req.url === '/page.css') return res.writeHead(200, { 'content-type': 'text/css' }).end('main { max-width: 40rem; margin: auto; }');
  if (req.url === '/field.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(FIELD);
  if (req.url === '/pixel.png') return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(req.url === '/broken' ? BROKEN : CLEAN);
});

test.before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});
test.after.always(async () => {
  await browser?.close();
  server.close();
});

async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) errors.push(m.text());
  });
  await page.goto(`${base}${path}`);
  return { page, errors };
}

test('a clean page has no violations, audited again after a change without injecting axe twice', async (t) => {
  const { page } = await open('/clean');
  t.deepEqual(await axeViolations(page), []);
  await page.getByRole('button', { name: 'Send' }).evaluate((b) => b.setAttribute('aria-label', 'Send the form'));
  t.deepEqual(await axeViolations(page), []);
  t.is(await page.evaluate(() => typeof (globalThis as any).axe.run), 'function');
  await page.context().close();
});

test('a broken page: each rule once, each element named, through a shadow root', async (t) => {
  const { page } = await open('/broken');
  await page.waitForFunction(() => !!(globalThis as any).document.querySelector('fl-field')?.shadowRoot);
  const found = await axeViolations(page);
  const byRule = new Map(found.map((line) => [line.slice(0, line.indexOf(':')), line]));
  t.deepEqual([...byRule.keys()].sort(), ['button-name', 'image-alt', 'label'], found.join('\n'));
  t.regex(byRule.get('image-alt')!, /^image-alt: img\b/);
  t.regex(byRule.get('button-name')!, /^button-name: #empty \(/, 'the element, then what fails');
  t.regex(byRule.get('label')!, /^label: fl-field >>> #inner \(/, 'the host, then the element in its shadow root');
  await page.context().close();
});

test("an audit makes no console error on a page whose CSP refuses inline styles", async (t) => {
  const { page, errors } = await open('/broken');
  t.true((await axeViolations(page)).length > 0, 'the page is audited');
  // axe's style sheet preload rebuilt the shadow root's sheet inline, which the CSP refused (src/axe.ts).
  t.deepEqual(errors, []);
  await page.context().close();
});
