import type { Condition } from '../../../../../core/src/logic/conditions.js';
import type { LogicJump } from '../../../../../core/src/logic/jumps.js';
import { ANY_OP_LABEL, valueShape } from './operators';

/** The question fields the logic map reads. */
export interface MapQuestion {
  id: string;
  title: string;
  /** The question's kind: a yes/no answer's `true` reads "Yes". */
  type?: string;
  logic_jumps?: unknown;
}

/** A condition's value in words: Yes/No for a yes/no answer, a text in quotes, a range or a list of choices. */
function valueWords(c: Condition, yesNo: boolean): string {
  const one = (v: unknown): string => {
    if (v === true || (yesNo && v === 'true')) return 'Yes';
    if (v === false || (yesNo && v === 'false')) return 'No';
    return typeof v === 'string' ? `“${v}”` : String(v);
  };
  const v = c.value;
  if (!Array.isArray(v)) return one(v);
  return c.op === 'between' ? `${one(v[0])} and ${one(v[1])}` : v.map(one).join(', ');
}

/** One condition in words: "the answer is Yes", "Q2 is any of “Cat”, “Dog”", "the hidden field plan is “pro”". */
export function conditionWords(c: Condition, q: MapQuestion, questions: MapQuestion[], names: Map<string, string>): string {
  const field = c.field && c.field !== q.id ? c.field : null;
  const tested = field ? questions.find((x) => x.id === field) : q;
  const subject = !field ? 'the answer' : field.startsWith('hidden:') ? `the hidden field ${field.slice('hidden:'.length)}` : (names.get(field) ?? 'a deleted question');
  const op = ANY_OP_LABEL[c.op] ?? c.op;
  return valueShape(c.op) === 'none' ? `${subject} ${op}` : `${subject} ${op} ${valueWords(c, tested?.type === 'yes_no')}`;
}

/** Where a jump goes, in words: "Q5", "the thank-you screen", or why it goes nowhere. */
export function targetWords(to: string, at: number, questions: MapQuestion[], names: Map<string, string>): string {
  if (to === 'end') return 'the thank-you screen';
  const i = questions.findIndex((q) => q.id === to);
  if (i < 0) return 'a deleted question';
  return i <= at ? `${names.get(to)} (backwards: not followed)` : names.get(to)!;
}

/**
 * A question's jumps as one line for the map's list ("If the answer is Yes: Q5; else if … the thank-you screen;
 * otherwise Q4"), so a screen reader hears what the drawing shows.
 */
export function jumpWords(q: MapQuestion, at: number, questions: MapQuestion[], names: Map<string, string>): string {
  const jumps = (Array.isArray(q.logic_jumps) ? q.logic_jumps : []) as LogicJump[];
  const next = at + 1 < questions.length ? names.get(questions[at + 1]!.id)! : 'the thank-you screen';
  if (jumps.length === 0) return `Next: ${next}`;
  const parts = jumps.map((j, k) => {
    const conditions = j.conditions ?? [];
    const tests = conditions.map((c) => conditionWords(c, q, questions, names)).join(j.match === 'any' ? ' or ' : ' and ');
    const when = conditions.length === 0 ? 'Always' : `${k === 0 ? 'If' : 'Else if'} ${tests}`;
    const acts = j.actions?.length ? ` (${j.actions.length === 1 ? '1 action' : `${j.actions.length} actions`})` : '';
    return `${when}: ${j.to === undefined ? 'go on' : targetWords(j.to, at, questions, names)}${acts}`;
  });
  const always = jumps.some((j) => (j.conditions?.length ?? 0) === 0 && j.to !== undefined);
  return `${parts.join('; ')}${always ? '' : `; otherwise ${next}`}`;
}
