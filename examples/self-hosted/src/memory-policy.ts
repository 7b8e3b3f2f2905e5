import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';

/*
 * How the self-hosted server's JavaScript heap grows (docs/decisions.md, "The server's memory policy"; figures
 * in docs/benchmarks.md, "Session 7" and "Session 11"). V8's defaults suit a short, busy program: they let the
 * heap grow to several times what is live before collecting it, and they keep the young generation at the
 * size a burst once needed. A server that runs for months beside other programs is better served by a heap
 * that stays close to what it holds. The settings are V8 flags that V8 reads at each collection, so they
 * apply when set at start, before anything is loaded; an operator's own flag (command line or NODE_OPTIONS)
 * wins.
 */

/** The old generation may grow this far (percent) past what was live after the last full collection. */
export const HEAP_GROWING_PERCENT = 20;

/**
 * The young generation grows up to this size (V8's `new_space`), not V8's 16 MB. Since requests are born
 * with the app's prototypes (`expressServerClasses`), almost nothing a request allocates outlives a
 * young collection, so a small young generation costs few promotions and no throughput.
 */
export const YOUNG_GENERATION_BYTES = 4 * 1024 * 1024;

/** V8's own growth factor of the young generation, while it is under `YOUNG_GENERATION_BYTES`. */
const YOUNG_GROWTH_FACTOR = 2;

/** The flags given to this process by its operator, whichever way (command line or NODE_OPTIONS). */
function operatorFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map((f) => f.replace(/_/g, '-'));
}

const given = (flags: string[], name: string) => flags.some((f) => f === `--${name}` || f.startsWith(`--${name}=`));

const youngGenerationBytes = () => getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;

/**
 * Keeps the young generation at or under `limit`. V8 sizes it once, from `--max-semi-space-size` on the
 * command line, which a server started as `node main.js` cannot give itself; its growth factor, though, V8
 * reads at each collection. So after every collection the factor is V8's while the young generation is
 * smaller than `limit` and 1 (no growth) once it is that big. V8 grows it only after the bytes surviving
 * young collections add up to its whole size, many collections apart: the check after each one is in time.
 * Returns what stops the watch.
 */
export function capYoungGeneration(limit: number): () => void {
  let factor = 0;
  const adjust = () => {
    const wanted = youngGenerationBytes() >= limit ? 1 : YOUNG_GROWTH_FACTOR;
    if (wanted === factor) return;
    factor = wanted;
    setFlagsFromString(`--semi-space-growth-factor=${wanted}`);
  };
  adjust();
  const observer = new PerformanceObserver(adjust);
  observer.observe({ entryTypes: ['gc'] });
  return () => observer.disconnect();
}

/** V8's flags that choose its compilers; an operator who gives any of them chooses for the whole run. */
const COMPILER_FLAGS = ['opt', 'no-opt', 'turbofan', 'no-turbofan', 'sparkplug', 'no-sparkplug', 'jitless', 'lite-mode'];

/**
 * Keeps V8's compilers of machine code (TurboFan, Sparkplug) off until the server listens; returns what
 * turns them back on. Startup code runs once: compiling it to machine code only leaves that code, and the
 * compilers' own pages, in memory at rest (docs/benchmarks.md, "Session 12"). Functions that requests run
 * often are compiled as usual once the compilers are back.
 */
export function deferMachineCode(flags: string[]): () => void {
  if (COMPILER_FLAGS.some((name) => given(flags, name))) return () => {};
  setFlagsFromString('--no-opt');
  setFlagsFromString('--no-sparkplug');
  return () => {
    setFlagsFromString('--opt');
    setFlagsFromString('--sparkplug');
  };
}

/**
 * Applies the policy to this process; returns what to call once the server listens. Startup (loading
 * modules, migrating, building metadata) allocates a great deal once: the young generation does not grow
 * for it, so it does not stay at its largest size afterwards. It grows again for requests, up to
 * `YOUNG_GENERATION_BYTES`. Machine code waits for the requests too (`deferMachineCode`).
 */
export function applyMemoryPolicy(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS): () => void {
  const flags = operatorFlags(execArgv, nodeOptions);
  if (!given(flags, 'heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  const compilers = deferMachineCode(flags);
  if (given(flags, 'semi-space-growth-factor') || given(flags, 'max-semi-space-size')) return compilers;
  setFlagsFromString('--semi-space-growth-factor=1');
  return () => {
    compilers();
    capYoungGeneration(YOUNG_GENERATION_BYTES);
  };
}
