import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { YOUNG_GENERATION_BYTES } from '../src/memory-policy';

const run = promisify(execFile);
const POLICY = join(__dirname, '..', 'src', 'memory-policy.js');
const MB = 1024 * 1024;

/**
 * A child process (V8 flags are the whole process's) that runs `setup`, then allocates like a server under
 * load, a few objects of each batch outliving a young collection, and prints its young generation's size
 * (V8's `new_space`) at the end.
 */
async function youngGenerationAfterLoad(setup: string, nodeArgs: string[] = []): Promise<number> {
  const script = `
    const { getHeapSpaceStatistics } = require('node:v8');
    const policy = require(${JSON.stringify(POLICY)});
    ${setup}
    const kept = [];
    (async () => {
      for (let round = 0; round < 400; round++) {
        for (let i = 0; i < 20000; i++) {
          const o = { round, i, tags: [i, String(i)] };
          if (i % 25 === 0) kept.push(o);
        }
        if (kept.length > 4000) kept.splice(0, kept.length - 4000);
        await new Promise((r) => setImmediate(r));
      }
      process.stdout.write(String(getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size));
    })();`;
  const { stdout } = await run(process.execPath, [...nodeArgs, '-e', script], { timeout: 120_000 });
  return Number(stdout);
}

test('the young generation grows up to the cap and no further; without it V8 grows it past the cap', async (t) => {
  const [capped, free] = await Promise.all([
    youngGenerationAfterLoad(`policy.capYoungGeneration(${4 * MB});`),
    youngGenerationAfterLoad(''),
  ]);
  t.true(capped >= 2 * MB && capped <= 4 * MB, `capped young generation ${capped}`);
  t.true(free > 4 * MB, `V8's own young generation ${free}`);
});

test('the server\'s policy caps the young generation once it listens, unless the operator sized it', async (t) => {
  const started = `policy.applyMemoryPolicy(process.execArgv, '')();`;
  const [policy, operator] = await Promise.all([
    youngGenerationAfterLoad(started),
    youngGenerationAfterLoad(started, ['--max-semi-space-size=8']),
  ]);
  t.true(policy <= YOUNG_GENERATION_BYTES, `young generation under the policy ${policy}`);
  t.true(operator > YOUNG_GENERATION_BYTES, `young generation with the operator's flag ${operator}`);
});

/**
 * A child process that applies the policy and reports whether a hot function is compiled by TurboFan
 * (V8's status bit 16) while the server starts and after it listens (`started()`), after many calls and
 * pauses for V8's background compiler.
 */
async function optimizedBeforeAndAfterListen(nodeArgs: string[] = []): Promise<{ starting: boolean; listening: boolean }> {
  const script = `
    const policy = require(${JSON.stringify(POLICY)});
    const started = policy.applyMemoryPolicy(process.execArgv, '');
    function hot(values) { let s = 0; for (let i = 0; i < values.length; i++) s += values[i] * 2; return s; }
    const values = Array.from({ length: 1000 }, (_, i) => i);
    const optimized = () => (%GetOptimizationStatus(hot) & 16) !== 0;
    (async () => {
      for (let i = 0; i < 20000; i++) hot(values);
      await new Promise((r) => setTimeout(r, 50));
      const starting = optimized();
      started();
      // Bounded by calls, not time: V8 tiers up on calls, and its background compiler gets each pause.
      for (let round = 0; round < 200 && !optimized(); round++) {
        for (let i = 0; i < 2000; i++) hot(values);
        await new Promise((r) => setTimeout(r, 5));
      }
      process.stdout.write(JSON.stringify({ starting, listening: optimized() }));
    })();`;
  const { stdout } = await run(process.execPath, ['--allow-natives-syntax', ...nodeArgs, '-e', script], { timeout: 120_000 });
  return JSON.parse(stdout) as { starting: boolean; listening: boolean };
}

test('machine code waits until the server listens, unless the operator chose V8\'s compilers', async (t) => {
  const [policy, operator] = await Promise.all([optimizedBeforeAndAfterListen(), optimizedBeforeAndAfterListen(['--no-opt'])]);
  t.deepEqual(policy, { starting: false, listening: true });
  t.deepEqual(operator, { starting: false, listening: false });
});
