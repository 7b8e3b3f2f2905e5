import type { Form, Question } from '../../data/forms';
import { renameIds } from './form-ids';

/*
 * Undo and redo of the builder (docs/workspace.md, "Undo and redo"), after Excalidraw's history: each edit
 * is kept as a delta (the form fields and the questions it changed, before and after), never as a copy of the
 * whole form, and undo applies the delta's "before" side to the form as it is now. So an update that came
 * from elsewhere meanwhile (the server's answer, another tab's version taken on a conflict) stays, unless
 * the step being undone changed the same field or question. Those updates never enter the history: only
 * edits made through `FormStore.update` with `capture` other than 'never' are recorded.
 *
 * Typing is grouped: edits that name the same `group` (the builder names the text field being typed in)
 * extend the step on top of the stack, until the group is sealed (the field loses focus, an undo, another
 * kind of edit) or the person pauses for PAUSE_MS.
 */

/** Whether an update enters the history: 'now' (the default) records it, 'never' applies it unrecorded. */
export type Capture = 'now' | 'never';

export interface EditOptions {
  capture?: Capture;
  /** Edits of the same group in a row make one step (e.g. the keystrokes typed in one field). */
  group?: unknown;
  /** What the step did, in plain words, for the Undo button and the announcement ("Delete question 3"). */
  label?: string;
}

type Side = 'before' | 'after';
interface Pair<T> {
  before: T;
  after: T;
}

/** What one step changed: form fields other than the questions, questions by id (null: absent), and the order. */
export interface Delta {
  fields: Record<string, Pair<unknown>>;
  questions: Record<string, Pair<Question | null>>;
  order: Pair<string[]> | null;
}

export interface Step {
  delta: Delta;
  label: string;
  group: unknown;
  at: number;
}

/** How many steps are kept (the oldest go first). */
export const HISTORY_LIMIT = 100;
/** A pause longer than this while typing starts a new step. */
export const PAUSE_MS = 1500;

const sameOrder = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** The delta from `before` to `after`; null when nothing changed. Drafts are immutable, so `!==` finds changes. */
export function diff(before: Form, after: Form): Delta | null {
  const fields: Delta['fields'] = {};
  const b = before as unknown as Record<string, unknown>;
  const a = after as unknown as Record<string, unknown>;
  for (const k of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (k !== 'questions' && b[k] !== a[k]) fields[k] = { before: b[k], after: a[k] };
  }
  const questions: Delta['questions'] = {};
  let order: Delta['order'] = null;
  if (before.questions !== after.questions) {
    const was = new Map(before.questions.map((q) => [q.id, q]));
    const now = new Map(after.questions.map((q) => [q.id, q]));
    for (const id of new Set([...was.keys(), ...now.keys()])) {
      const x = was.get(id) ?? null;
      const y = now.get(id) ?? null;
      if (x !== y) questions[id] = { before: x, after: y };
    }
    const o1 = before.questions.map((q) => q.id);
    const o2 = after.questions.map((q) => q.id);
    if (!sameOrder(o1, o2)) order = { before: o1, after: o2 };
  }
  if (!Object.keys(fields).length && !Object.keys(questions).length && !order) return null;
  return { fields, questions, order };
}

/** `older` then `newer` as one delta (a typing group). */
function merge(older: Delta, newer: Delta): Delta {
  const fields = { ...older.fields };
  for (const [k, p] of Object.entries(newer.fields)) fields[k] = { before: k in fields ? fields[k]!.before : p.before, after: p.after };
  const questions = { ...older.questions };
  for (const [k, p] of Object.entries(newer.questions)) questions[k] = { before: k in questions ? questions[k]!.before : p.before, after: p.after };
  const order = older.order && newer.order ? { before: older.order.before, after: newer.order.after } : (newer.order ?? older.order);
  return { fields, questions, order };
}

/** The form with one side of `delta` applied to it (undo applies 'before', redo 'after'). */
export function apply(form: Form, delta: Delta, side: Side): Form {
  const next = { ...form } as unknown as Record<string, unknown>;
  for (const [k, p] of Object.entries(delta.fields)) next[k] = p[side];
  const ids = Object.keys(delta.questions);
  if (!ids.length && !delta.order) return next as unknown as Form;
  const byId = new Map(form.questions.map((q) => [q.id, q]));
  for (const id of ids) {
    const q = delta.questions[id]![side];
    if (q) byId.set(id, q);
    else byId.delete(id);
  }
  // The step's order for the questions it knew; a question added elsewhere since keeps its place after its
  // current predecessor.
  const wanted = (delta.order?.[side] ?? form.questions.map((q) => q.id)).filter((id) => byId.has(id));
  const placed = new Set(wanted);
  const current = form.questions.map((q) => q.id);
  for (const id of byId.keys()) {
    if (placed.has(id)) continue;
    const i = current.indexOf(id);
    const prev = i > 0 ? current.slice(0, i).reverse().find((p) => placed.has(p)) : undefined;
    wanted.splice(prev ? wanted.indexOf(prev) + 1 : i === 0 ? 0 : wanted.length, 0, id);
    placed.add(id);
  }
  next.questions = wanted.map((id, order) => {
    const q = byId.get(id)!;
    return q.order === order ? q : { ...q, order };
  });
  return next as unknown as Form;
}

/** The questions a delta added, removed or changed. */
export const touchedQuestions = (d: Delta): string[] => Object.keys(d.questions);

function renameDelta(d: Delta, ids: Map<string, string>): Delta {
  const id = (x: string) => ids.get(x) ?? x;
  const q = (x: Question | null) => (x ? renameIds({ questions: [x], start_logic_jumps: null } as unknown as Form, ids).questions[0]! : null);
  const fields = { ...d.fields };
  if (fields.start_logic_jumps) {
    const jumps = (v: unknown) => renameIds({ questions: [], start_logic_jumps: v } as unknown as Form, ids).start_logic_jumps;
    fields.start_logic_jumps = { before: jumps(fields.start_logic_jumps.before), after: jumps(fields.start_logic_jumps.after) };
  }
  const questions: Delta['questions'] = {};
  for (const [k, p] of Object.entries(d.questions)) questions[id(k)] = { before: q(p.before), after: q(p.after) };
  const order = d.order ? { before: d.order.before.map(id), after: d.order.after.map(id) } : null;
  return { fields, questions, order };
}

/**
 * The undo and redo stacks. `record` is called by the store for each captured edit; `undo`/`redo` take the
 * form as it is now and return it with the step applied (the store saves it like any edit). Emits `change`
 * whenever what can be undone or redone changes.
 */
export class History extends EventTarget {
  private undos: Step[] = [];
  private redos: Step[] = [];
  private sealed = true;
  /**
   * The group and label of an edit made now that names none: set by the builder while an input or change
   * event runs, so an editor records its edits without knowing about the history.
   */
  ambient: { group: unknown; label: string } | null = null;

  constructor(
    private readonly limit = HISTORY_LIMIT,
    private readonly now: () => number = () => Date.now(),
  ) {
    super();
  }

  get canUndo(): boolean {
    return this.undos.length > 0;
  }
  get canRedo(): boolean {
    return this.redos.length > 0;
  }
  /** The label of the step Undo would take back, and of the one Redo would make again. */
  get undoLabel(): string {
    return this.undos.at(-1)?.label ?? '';
  }
  get redoLabel(): string {
    return this.redos.at(-1)?.label ?? '';
  }
  get size(): number {
    return this.undos.length;
  }

  record(before: Form, after: Form, opts: EditOptions = {}): void {
    const delta = diff(before, after);
    if (!delta) return;
    const group = opts.group ?? this.ambient?.group;
    const top = this.undos.at(-1);
    const at = this.now();
    if (top && !this.sealed && group !== undefined && top.group === group && at - top.at <= PAUSE_MS) {
      top.delta = merge(top.delta, delta);
      top.at = at;
    } else {
      this.undos.push({ delta, label: opts.label ?? this.ambient?.label ?? 'Edit', group, at });
      if (this.undos.length > this.limit) this.undos.shift();
    }
    this.sealed = group === undefined;
    this.redos = [];
    this.changed();
  }

  /** Ends the typing group on top: the next edit is a step of its own. */
  seal(): void {
    this.sealed = true;
  }

  /** The form with the last step taken back, and the step; null when there is nothing to undo. */
  undo(form: Form): { form: Form; step: Step } | null {
    return this.move(this.undos, this.redos, form, 'before');
  }

  redo(form: Form): { form: Form; step: Step } | null {
    return this.move(this.redos, this.undos, form, 'after');
  }

  private move(from: Step[], to: Step[], form: Form, side: Side) {
    const step = from.pop();
    if (!step) return null;
    this.sealed = true;
    to.push(step);
    this.changed();
    return { form: apply(form, step.delta, side), step };
  }

  /** The server named new questions (temporary id -> its id): the steps name them so too. */
  rename(ids: Map<string, string>): void {
    if (!ids.size) return;
    for (const s of [...this.undos, ...this.redos]) s.delta = renameDelta(s.delta, ids);
  }

  clear(): void {
    this.undos = [];
    this.redos = [];
    this.sealed = true;
    this.changed();
  }

  private changed() {
    this.dispatchEvent(new Event('change'));
  }
}
