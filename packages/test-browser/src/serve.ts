import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from './index';

/*
 * `node packages/test-browser/dist/src/serve.js`: the one browser a test run shares (scripts/test.mjs,
 * docs/testing.md). Launching Chromium costs about a CPU-second; one per test file was some 45 of them a run.
 * Prints `{"wsEndpoint": ...}` on a line once the browser is up; closes it when its standard input ends, then
 * prints `{"cpuMs": ...}`: its own CPU time and the browser's (the children it waited for), for the run's
 * report. Test files connect with `launchBrowser()` (index.ts) through FORMLOOM_TEST_BROWSER_WS.
 */

function childrenCpuMs(): number {
  try {
    // /proc/self/stat after the command's closing parenthesis: cutime and cstime are the 14th and 15th fields, in 1/100 s.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0; // Not Linux: the browser's share is left out.
  }
}

async function main() {
  const server = await chromium.launchServer({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  process.stdout.write(`${JSON.stringify({ wsEndpoint: server.wsEndpoint() })}\n`);
  process.stdin.resume();
  await new Promise<void>((resolve) => process.stdin.once('end', resolve).once('close', resolve));
  await server.close();
  const own = process.cpuUsage();
  process.stdout.write(`${JSON.stringify({ cpuMs: Math.round((own.user + own.system) / 1000 + childrenCpuMs()) })}\n`);
}

main().catch((err) => {
  console.error(`shared browser: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
