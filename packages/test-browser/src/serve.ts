import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './index';
import { TreeCpu } from './tree-cpu';

/*
 * `node packages/test-browser/dist/src/serve.js`: the one browser a test run shares (scripts/test.mjs,
 * docs/testing.md). Launching Chromium costs about a CPU-second; one per test file was some 45 of them a run.
 * Prints `{"wsEndpoint": ...}` on a line once the browser is up; closes it when its standard input ends, then
 * prints `{"cpuMs": ...}`: its own CPU time and that of every process under it (Chromium's, read while they
 * run: tree-cpu.ts), for the run's report. Test files connect with `launchBrowser()` (index.ts) through FORMLOOM_TEST_BROWSER_WS.
 */

async function main() {
  const tree = new TreeCpu().start();
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  process.stdout.write(`${JSON.stringify({ wsEndpoint: server.wsEndpoint() })}\n`);
  process.stdin.resume();
  await new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));
  tree.sample();
  await server.close();
  tree.stop();
  const own = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ cpuMs: Math.round((own.user + own.system) / 1000 + tree.descendantsMs()) })}\n`);
}

main().catch((err) => {
  console.error(`shared browser: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
