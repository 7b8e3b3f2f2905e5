import type { Form } from '../../data/forms';
import { renameRecallIds } from './recall-ids';

/*
 * Question ids in the browser: new questions carry temporary ids (`new_...`) until a save names them, and
 * every place that names a question (jump targets, conditions, start jumps) follows the rename.
 */

/** A temporary id for a question made in the browser; the first save replaces it. */
// getRandomValues, not randomUUID: the latter exists only in secure contexts (not on plain http over a LAN).
export const tempId = () => `new_${[...crypto.getRandomValues(new Uint8Array(10))].map((b) => b.toString(16).padStart(2, '0')).join('')}`;

/** Replaces question ids everywhere they are named: the questions, jump targets, conditions, start jumps, recalls. */
export function renameIds(form: Form, ids: Map<string, string>): Form {
  if (!ids.size) return form;
  const fix = (v: unknown): unknown => (typeof v === 'string' && ids.has(v) ? ids.get(v) : v);
  const jumps = (list: unknown) =>
    Array.isArray(list)
      ? list.map((j: { to?: unknown; conditions?: Array<{ field?: unknown }> }) => ({ ...j, to: fix(j.to), ...(j.conditions ? { conditions: j.conditions.map((c) => ({ ...c, ...(c.field !== undefined ? { field: fix(c.field) } : {}) })) } : {}) }))
      : list;
  return renameRecallIds({
    ...form,
    start_logic_jumps: jumps(form.start_logic_jumps) as Form['start_logic_jumps'],
    questions: form.questions.map((q) => ({ ...q, id: fix(q.id) as string, logic_jumps: jumps(q.logic_jumps) as unknown[] })),
  }, ids);
}
