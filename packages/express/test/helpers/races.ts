import type { ExecutionContext } from 'ava';
import type { ApiResponse, TestApp } from './app';

/*
 * Operations racing the deletion of their parent (a team, a form, a signing session's form, a voice
 * generation): each child answers as if it came wholly before the delete (its success) or wholly after it
 * (404), never a 500. Asserted per outcome, with no timing: every round fires both at once, the delete first in
 * even rounds and last in odd ones. Sent in one order only, the delete won nearly every round (most children
 * answered only 404 over 6 to 8 rounds): alternating the order reaches both sides with fewer rounds.
 */

export type Child<C> = [name: string, run: (app: TestApp, c: C) => Promise<ApiResponse>, allowed?: number[]];

export interface ParentRace<C> {
  /** What the parent is, for the tests' titles. */
  parent: string;
  /** A new parent for one round (0 to rounds - 1: even rounds send the delete first, odd ones the children). */
  setup: (app: TestApp, round: number) => Promise<C>;
  remove: (app: TestApp, c: C) => Promise<ApiResponse>;
  /** What the parent's delete may answer (default: a success). */
  removeAllowed?: number[];
  children: Child<C>[];
  /** Parents raced side by side (default 4): half with the delete sent first, half with the children first. */
  rounds?: number;
  /** After each round, whatever the outcome: e.g. that no child row outlived its parent. */
  after?: (app: TestApp, c: C) => Promise<string | null>;
}

const SUCCESS = [200, 201, 202, 204];

type Register = (title: string, fn: (t: ExecutionContext, app: TestApp) => Promise<void>) => void;

/** One test per child operation (each quick, so a busy machine never meets ava's inactivity timeout). */
export function raceParentDelete<C>(it: Register, r: ParentRace<C>): void {
  for (const [name, run, allowed = [...SUCCESS, 404]] of r.children) {
    it(`${r.parent}: ${name} racing the ${r.parent}'s delete answers its success or 404, never a 500`, async (t, app) => {
      const problems: string[] = [];
      const seen = new Set<number>();
      // Rounds run side by side (each its own parent).
      await Promise.all(
        Array.from({ length: r.rounds ?? 4 }, async (_, round) => {
          const c = await r.setup(app, round);
          // Two of the child at once widen the window where the parent goes between its read and its write.
          const sent = (first: 'delete' | 'child') => {
            if (first === 'delete') return [r.remove(app, c), run(app, c), run(app, c)];
            const children = [run(app, c), run(app, c)];
            return [r.remove(app, c), ...children];
          };
          const [removed, ...answers] = await Promise.all(sent(round % 2 === 0 ? 'delete' : 'child'));
          if (!(r.removeAllowed ?? SUCCESS).includes(removed.status))
            problems.push(`the ${r.parent}'s delete answered ${removed.status}: ${removed.text.slice(0, 200)}`);
          for (const a of answers) {
            seen.add(a.status);
            if (!allowed.includes(a.status)) problems.push(`${a.status} ${a.text.slice(0, 300)}`);
          }
          const left = await r.after?.(app, c);
          if (left) problems.push(left);
        })
      );
      t.deepEqual([...new Set(problems)], []);
      t.log(`${name} answered ${[...seen].sort().join('/')}`);
    });
  }
}
