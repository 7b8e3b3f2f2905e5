import type { ExecutionContext } from 'ava';
import type { ApiResponse } from './app';

/*
 * Operations racing the deletion of their parent (a team, a form, a signing session's form, a voice
 * generation): each child answers as if it came wholly before the delete (its success) or wholly after it
 * (404), never a 500. Asserted per outcome, with no timing: every round fires both at once.
 */

export type Child<C> = [name: string, run: (c: C) => Promise<ApiResponse>, allowed?: number[]];

export interface ParentRace<C> {
  setup: () => Promise<C>;
  remove: (c: C) => Promise<ApiResponse>;
  children: Child<C>[];
  rounds?: number;
  /** After each round, whatever the outcome: e.g. that no child row outlived its parent. */
  after?: (c: C) => Promise<string | null>;
}

const SUCCESS = [200, 201, 202, 204];

export async function raceParentDelete<C>(t: ExecutionContext, race: ParentRace<C>): Promise<void> {
  const problems: string[] = [];
  const seen = new Map<string, Set<number>>();
  for (const [name, run, allowed = [...SUCCESS, 404]] of race.children) {
    // Rounds run side by side (each its own parent), so the file stays quick on a busy machine.
    await Promise.all(Array.from({ length: race.rounds ?? 10 }, async () => {
      const c = await race.setup();
      // Two of the child at once make the window where the parent goes between its read and its write wider.
      const [removed, ...answers] = await Promise.all([race.remove(c), run(c), run(c)]);
      if (!SUCCESS.includes(removed.status)) problems.push(`the parent's delete answered ${removed.status}: ${removed.text.slice(0, 200)}`);
      for (const a of answers) {
        (seen.get(name) ?? seen.set(name, new Set()).get(name)!).add(a.status);
        if (!allowed.includes(a.status)) problems.push(`${name}: ${a.status} ${a.text.slice(0, 300)}`);
      }
      const left = await race.after?.(c);
      if (left) problems.push(`${name}: ${left}`);
    }));
  }
  t.deepEqual([...new Set(problems)], []);
  t.log([...seen].map(([n, s]) => `${n}: ${[...s].sort().join('/')}`).join('; '));
}
