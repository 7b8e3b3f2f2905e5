import type { LogicJump } from '../../../../../core/src/logic/jumps.js';

/** The question fields the check reads. */
export interface OrderedQuestion {
  id: string;
  title: string;
  logic_jumps?: unknown;
}

/** One jump a move would change: it would point backwards, or skip other questions than before. */
export interface JumpShift {
  kind: 'backwards' | 'skips';
  /** In plain words, numbered as before the move: "The jump from Q3 “Age” to Q5 “Job” would skip Q4 “Pets” too." */
  message: string;
}

const name = (qs: OrderedQuestion[], id: string) => {
  const i = qs.findIndex((q) => q.id === id);
  return `Q${i + 1} “${qs[i]?.title || 'Untitled question'}”`;
};

/** The ids strictly between a jump's question and its target (`end`: every later one). */
function skipped(order: string[], from: string, to: string): string[] {
  const a = order.indexOf(from);
  const b = to === 'end' ? order.length : order.indexOf(to);
  return b > a ? order.slice(a + 1, b) : [];
}

const list = (qs: OrderedQuestion[], ids: string[]) => ids.map((id) => name(qs, id)).join(', ');

/**
 * What moving the question at `from` to `to` does to the form's jumps (docs/workspace.md, "Logic"). Jumps
 * name their targets by id, so the target stays; but a target now at or before its question makes the jump
 * point backwards (the form cannot be saved so), and a question moved into or out of the stretch a jump
 * passes over changes what it skips. Both are easy to cause by accident and invisible in the list.
 */
export function reorderEffects(questions: OrderedQuestion[], from: number, to: number): JumpShift[] {
  if (from === to || !questions[from] || to < 0 || to >= questions.length) return [];
  const before = questions.map((q) => q.id);
  const after = [...before];
  const [moved] = after.splice(from, 1);
  after.splice(to, 0, moved!);
  const out: JumpShift[] = [];
  for (const q of questions) {
    const jumps = (Array.isArray(q.logic_jumps) ? q.logic_jumps : []) as LogicJump[];
    for (const target of new Set(jumps.map((j) => j?.to).filter((t): t is string => typeof t === 'string'))) {
      if (target !== 'end' && !before.includes(target)) continue;
      const where = target === 'end' ? 'the thank-you screen' : name(questions, target);
      const head = `The jump from ${name(questions, q.id)} to ${where}`;
      if (target !== 'end' && before.indexOf(target) > before.indexOf(q.id) && after.indexOf(target) <= after.indexOf(q.id)) {
        out.push({ kind: 'backwards', message: `${head} would point backwards, and the form cannot be saved until it gets a new target.` });
        continue;
      }
      const was = skipped(before, q.id, target);
      const now = skipped(after, q.id, target);
      const added = now.filter((id) => !was.includes(id));
      const dropped = was.filter((id) => !now.includes(id));
      if (added.length) out.push({ kind: 'skips', message: `${head} would skip ${list(questions, added)} too.` });
      else if (dropped.length) out.push({ kind: 'skips', message: `${head} would no longer skip ${list(questions, dropped)}.` });
    }
  }
  return out;
}
