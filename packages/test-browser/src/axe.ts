import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/*
 * axe-core's audit of a page, the one way the browser tests run it (docs/testing.md, "Accessibility").
 *
 * Two things a run would otherwise do for nothing are left out:
 * - the style sheets' preload (`preload` keeps `media` only). Axe fetches every sheet again and rebuilds it in a
 *   document of its own, for one rule, `css-orientation-lock`, which is experimental and off by default; the
 *   rebuilding is also what the pages' CSP refused with a console error at every run. The media preload stays:
 *   `no-autoplay-audio` reads the media's durations.
 * - the CSS selector of every node checked (`selectors: false`) in a run that finds nothing, the usual case; a
 *   run that found a violation is made again with them, to name the elements in the failure.
 * Together a few percent of a run (docs/testing.md, "Accessibility").
 * Only violations are collected (`resultTypes`): passes and the inapplicable rules keep one node each.
 */

/** What a run of axe answers, as far as the tests read it. */
interface AxeResult {
  violations: Array<{ id: string; nodes: Array<{ target?: unknown[] | null; failureSummary?: string }> }>;
}

/**
 * axe-core's violations on the page as it is now (shadow roots included), one `rule: element (what fails);
 * element (...)` line per rule broken; `[]` when it finds none.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Through the DevTools protocol, which the page's CSP (no inline script) does not govern; once per document.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8'));
  const run = (selectors: boolean) =>
    page.evaluate(
      async (withSelectors) =>
        (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'], selectors: withSelectors, preload: { assets: ['media'] } }),
      selectors,
    ) as Promise<AxeResult>;
  let result = await run(false);
  if (result.violations.length) {
    // The page stands still while a test audits it; should the second run find nothing, the first one's rules stand.
    const named = await run(true);
    if (named.violations.length) result = named;
  }
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${targetOf(n.target)}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ')})` : ''}`).join('; ')}`);
}

/** A node's selector: the parts through shadow roots joined by ` >>> `, through frames by ` >> `. */
function targetOf(target: unknown[] | null | undefined): string {
  return (target ?? ['(unnamed)']).map((part) => (Array.isArray(part) ? part.join(' >>> ') : String(part))).join(' >> ');
}
