import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/*
 * axe-core's audit of a page, the one way the browser tests run it (docs/testing.md, "Accessibility").
 *
 * A run that finds nothing is the usual case, so the first run leaves out axe's CSS selector of every node it
 * checked (`selectors: false`: about a seventh of a run's CPU in the renderer); only a run that found a violation
 * is made again with them, to name the elements in the failure. Only violations are collected (`resultTypes`):
 * passes and the inapplicable rules keep one node each.
 */

/** What a run of axe answers, as far as the tests read it. */
interface AxeResult {
  violations: Array<{ id: string; nodes: Array<{ target?: unknown[] | null; failureSummary?: string }> }>;
}

/** The console messages axe's own probes cause on a page whose CSP refuses inline styles: axe's, not the page's. */
const AXE_CSP_NOISE = 'Applying inline style violates';

/**
 * axe-core's violations on the page as it is now (shadow roots included), one `rule: target; target` line per
 * rule; `[]` when it finds none. `consoleErrors`, the page's console errors a test collects, loses the lines
 * axe's probes added to it while it ran.
 */
export async function axeViolations(page: Page, consoleErrors?: string[]): Promise<string[]> {
  const before = consoleErrors?.length ?? 0;
  // Through the DevTools protocol, which the page's CSP (no inline script) does not govern; once per document.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(readFileSync(createRequire(__filename).resolve('axe-core/axe.min.js'), 'utf8'));
  const run = (selectors: boolean) =>
    page.evaluate(
      async (withSelectors) => (globalThis as any).axe.run((globalThis as any).document, { resultTypes: ['violations'], selectors: withSelectors }),
      selectors,
    ) as Promise<AxeResult>;
  let result = await run(false);
  if (result.violations.length) {
    // The page stands still while a test audits it; should the second run find nothing, the first one's rules stand.
    const named = await run(true);
    if (named.violations.length) result = named;
  }
  if (consoleErrors) {
    const added = consoleErrors.splice(before).filter((e) => !e.startsWith(AXE_CSP_NOISE));
    consoleErrors.push(...added);
  }
  return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => `${targetOf(n.target)}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ')})` : ''}`).join('; ')}`);
}

/** A node's selector: the parts through shadow roots joined by ` >> `. */
function targetOf(target: unknown[] | null | undefined): string {
  return (target ?? ['(unnamed)']).map((part) => (Array.isArray(part) ? part.join(' >>> ') : String(part))).join(' >> ');
}
