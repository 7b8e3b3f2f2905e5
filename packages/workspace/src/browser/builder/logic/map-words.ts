import type { LogicJump } from '../../../../../core/src/logic/jumps.js';

/** The question fields the logic map reads. */
export interface MapQuestion {
  id: string;
  title: string;
  logic_jumps?: unknown;
}

/** Where a jump goes, in words: "Q5", "the thank-you screen", or why it goes nowhere. */
export function targetWords(to: string, at: number, questions: MapQuestion[], names: Map<string, string>): string {
  if (to === 'end') return 'the thank-you screen';
  const i = questions.findIndex((q) => q.id === to);
  if (i < 0) return 'a deleted question';
  return i <= at ? `${names.get(to)} (backwards: not followed)` : names.get(to)!;
}

/**
 * A question's jumps as one line for the map's list ("If … go to Q5; else if … the thank-you screen; otherwise
 * Q4"), so a screen reader hears what the drawing shows.
 */
export function jumpWords(q: MapQuestion, at: number, questions: MapQuestion[], names: Map<string, string>): string {
  const jumps = (Array.isArray(q.logic_jumps) ? q.logic_jumps : []) as LogicJump[];
  const next = at + 1 < questions.length ? names.get(questions[at + 1]!.id)! : 'the thank-you screen';
  if (jumps.length === 0) return `Next: ${next}`;
  const parts = jumps.map((j, k) => {
    const n = j.conditions?.length ?? 0;
    const when = n === 0 ? 'Always' : `${k === 0 ? 'If' : 'Else if'} ${n === 1 ? '1 condition' : `${j.match === 'any' ? 'any' : 'all'} of ${n} conditions`}`;
    const acts = j.actions?.length ? ` (${j.actions.length === 1 ? '1 action' : `${j.actions.length} actions`})` : '';
    return `${when}: ${j.to === undefined ? 'go on' : targetWords(j.to, at, questions, names)}${acts}`;
  });
  const always = jumps.some((j) => (j.conditions?.length ?? 0) === 0 && j.to !== undefined);
  return `${parts.join('; ')}${always ? '' : `; otherwise ${next}`}`;
}
