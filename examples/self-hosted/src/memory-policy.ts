import { setFlagsFromString } from 'node:v8';

/*
 * How the self-hosted server's JavaScript heap grows (docs/decisions.md, "The server's memory policy"; figures
 * in docs/benchmarks.md, "Session 7"). V8's defaults suit a short, busy program: they let the heap grow to
 * several times what is live before collecting it, and they keep the young generation at the size a burst
 * once needed. A server that runs for months beside other programs is better served by a heap that stays
 * close to what it holds. Both settings are V8 flags that V8 reads at each collection, so they apply when
 * set at start, before anything is loaded; an operator's own flag (command line or NODE_OPTIONS) wins.
 */

/** The old generation may grow this far (percent) past what was live after the last full collection. */
export const HEAP_GROWING_PERCENT = 60;

/** V8's own growth factor of the young generation, restored once the server listens. */
const YOUNG_GROWTH_FACTOR = 2;

/** The flags given to this process by its operator, whichever way (command line or NODE_OPTIONS). */
function operatorFlags(execArgv: readonly string[], nodeOptions: string | undefined): string[] {
  return [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map((f) => f.replace(/_/g, '-'));
}

const given = (flags: string[], name: string) => flags.some((f) => f === `--${name}` || f.startsWith(`--${name}=`));

/**
 * Applies the policy to this process; returns what to call once the server listens. Startup (loading
 * modules, migrating, building metadata) allocates a great deal once: the young generation does not grow
 * for it, so it does not stay at its largest size afterwards. It grows again for requests.
 */
export function applyMemoryPolicy(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS): () => void {
  const flags = operatorFlags(execArgv, nodeOptions);
  if (!given(flags, 'heap-growing-percent')) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (given(flags, 'semi-space-growth-factor')) return () => {};
  setFlagsFromString('--semi-space-growth-factor=1');
  return () => setFlagsFromString(`--semi-space-growth-factor=${YOUNG_GROWTH_FACTOR}`);
}
