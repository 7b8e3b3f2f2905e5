/*
 * PostgreSQL ends one of two transactions that wait on each other's row locks ("deadlock detected",
 * SQLSTATE 40P01), e.g. a form's delete (form row, then its responses by cascade) against a response's
 * delete (response row, then the form's count). Its own advice is to run the victim again: nothing of it
 * was committed. SQLite runs one write transaction at a time and never gets here.
 */

const TRIES = 4;

/** True for PostgreSQL's deadlock error, wrapped by TypeORM or not. */
export function isDeadlock(err: unknown): boolean {
  const e = err as { code?: unknown; driverError?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (e.driverError) return isDeadlock(e.driverError);
  return e.code === '40P01';
}

/** Runs `attempt` (a whole transaction) again when PostgreSQL picked it as a deadlock's victim. */
export async function retryDeadlocks<T>(attempt: () => Promise<T>): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (err) {
      if (i >= TRIES || !isDeadlock(err)) throw err;
      // A short random pause, so the two do not meet again at once.
      await new Promise((r) => setTimeout(r, Math.random() * 20 * i));
    }
  }
}
