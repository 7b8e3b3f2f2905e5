/**
 * Waits for a condition instead of sleeping: calls `check` until it returns something other than `false`,
 * `undefined` or `null`, and resolves with that. Tests run on busy machines, so the deadline is generous
 * (60 s by default) and only bounds a failure: a passing test waits no longer than its condition takes.
 * Past the deadline it rejects with `what` and the last error `check` threw, if any.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<Exclude<T, false | null | undefined>> {
  const { timeoutMs = 60_000, intervalMs = 25, what = 'the condition' } = opts;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== false && value !== undefined && value !== null) return value as Exclude<T, false | null | undefined>;
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      const cause = lastError ? `: ${lastError instanceof Error ? lastError.message : String(lastError)}` : '';
      throw new Error(`${what} did not hold within ${timeoutMs} ms${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
