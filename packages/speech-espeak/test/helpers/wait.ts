/** Waits for `condition`, polling every 20 ms, for at most two minutes (a busy machine is slow, not wrong). */
export async function until(condition: () => boolean, what: string, deadlineMs = 120_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > deadlineMs) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** True once no process `pid` exists any more. */
export function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
