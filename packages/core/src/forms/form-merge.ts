import { stableJson } from './changelog';

/*
 * A three-way merge of a form, field by field (docs/decisions.md, "Two-tab conflicts"): what a tab last read
 * from the server (`base`), what the person made of it since (`mine`), and what the server holds now
 * (`theirs`, saved meanwhile by another tab or person). Used by the workspace's builder when a save answers
 * 412; pure, so that any client of the API holding an ETag can merge the same way.
 *
 * The units compared: each form field other than the questions; each question's fields, its `properties` key
 * by key; whether each question exists; and the order of the questions both sides kept. A unit changed on one
 * side only takes that side's value; changed alike on both sides, that value; changed differently, it is a
 * conflict, resolved by `choose` (mine unless it says otherwise). Deleted on one side and changed on the
 * other, a question is a conflict of its own: "mine" keeps the side the person chose to be on (deleted, or
 * their version), "theirs" the other. Added questions of both sides are all kept, after the question that
 * precedes them on their side. Jumps naming a question the result lacks are dropped (the API refuses them).
 */

export type Side = 'mine' | 'theirs';

export interface MergeQuestion {
  id: string;
  [field: string]: unknown;
}

export interface MergeForm {
  questions: MergeQuestion[];
  [field: string]: unknown;
}

/** Where a change is: a form field, a question's field (`properties.<key>` for a property), or the order. */
export type MergePlace =
  | { kind: 'form'; field: string }
  | { kind: 'question'; id: string; field: string }
  /** A question deleted on one side and changed on the other; `deletedBy` says which side deleted it. */
  | { kind: 'deleted'; id: string; deletedBy: Side; changed: string[] }
  | { kind: 'order' };

export interface MergeConflict {
  /** Stable across merges of the same three forms: `form:title`, `q:<id>:title`, `q:<id>:deleted`, `order`. */
  id: string;
  place: MergePlace;
  base: unknown;
  mine: unknown;
  theirs: unknown;
}

/** A change of the other side taken without a conflict (for saying what was merged). */
export interface MergeChange {
  id: string;
  place: MergePlace;
}

export interface MergeResult<F extends MergeForm> {
  form: F;
  conflicts: MergeConflict[];
  /** Their changes the result took because the person had not changed the same thing. */
  taken: MergeChange[];
}

export interface MergeOptions {
  /** Form fields only the server writes (ids, dates, publish state): always theirs, never a conflict. */
  serverFields?: readonly string[];
  /** Question fields never compared (`order` follows the merged order). */
  questionServerFields?: readonly string[];
  /** The side taken for each conflict (by its id); mine when not given. */
  choose?: (conflictId: string) => Side;
}

const QUESTION_SERVER_FIELDS = ['order', 'form_id', 'created_at', 'updated_at'];
const same = (a: unknown, b: unknown) => a === b || stableJson(a) === stableJson(b);
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** One unit compared three ways: the value to keep, and whether it is a conflict or their change. */
function pick(base: unknown, mine: unknown, theirs: unknown): { value: unknown; outcome: 'same' | 'mine' | 'theirs' | 'conflict' } {
  if (same(mine, theirs)) return { value: mine, outcome: 'same' };
  if (same(base, mine)) return { value: theirs, outcome: 'theirs' };
  if (same(base, theirs)) return { value: mine, outcome: 'mine' };
  return { value: mine, outcome: 'conflict' };
}

class Merger {
  readonly conflicts: MergeConflict[] = [];
  readonly taken: MergeChange[] = [];
  constructor(private readonly choose: (id: string) => Side) {}

  /** Merges one unit; a conflict takes the chosen side. */
  unit(id: string, place: MergePlace, base: unknown, mine: unknown, theirs: unknown): unknown {
    const r = pick(base, mine, theirs);
    if (r.outcome === 'theirs') this.taken.push({ id, place });
    if (r.outcome !== 'conflict') return r.value;
    this.conflicts.push({ id, place, base, mine, theirs });
    return this.choose(id) === 'theirs' ? theirs : mine;
  }

  /** A question both sides kept: field by field, `properties` key by key. */
  question(base: MergeQuestion | null, mine: MergeQuestion, theirs: MergeQuestion, skip: readonly string[]): MergeQuestion {
    const out: Record<string, unknown> = { ...theirs };
    const b = (base ?? {}) as Record<string, unknown>;
    for (const field of new Set([...Object.keys(b), ...Object.keys(mine), ...Object.keys(theirs)])) {
      if (field === 'id' || skip.includes(field)) continue;
      if (field === 'properties' && (isRecord(mine.properties) || isRecord(theirs.properties))) {
        const [pb, pm, pt] = [b.properties, mine.properties, theirs.properties].map((p) => (isRecord(p) ? p : {})) as Array<Record<string, unknown>>;
        const props: Record<string, unknown> = {};
        for (const key of new Set([...Object.keys(pb!), ...Object.keys(pm!), ...Object.keys(pt!)])) {
          const v = this.unit(`q:${mine.id}:properties.${key}`, { kind: 'question', id: mine.id, field: `properties.${key}` }, pb![key], pm![key], pt![key]);
          if (v !== undefined) props[key] = v;
        }
        out.properties = props;
        continue;
      }
      const v = this.unit(`q:${mine.id}:${field}`, { kind: 'question', id: mine.id, field }, b[field], mine[field], theirs[field]);
      if (v === undefined) delete out[field];
      else out[field] = v;
    }
    return out as MergeQuestion;
  }
}

/** The fields of a question that differ between two versions of it (for "they changed the title"). */
function changedFields(a: MergeQuestion, b: MergeQuestion, skip: readonly string[]): string[] {
  const out: string[] = [];
  for (const field of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (field === 'id' || skip.includes(field) || same(a[field], b[field])) continue;
    if (field === 'properties' && isRecord(a.properties) && isRecord(b.properties)) {
      for (const key of new Set([...Object.keys(a.properties), ...Object.keys(b.properties)])) if (!same(a.properties[key], b.properties[key])) out.push(`properties.${key}`);
    } else out.push(field);
  }
  return out;
}

/** `list` filtered to `keep`, in its order. */
const only = (list: string[], keep: Set<string>) => list.filter((id) => keep.has(id));
const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Merges `mine` and `theirs`, both made from `base` (see the comment at the top of this file). */
export function mergeForms<F extends MergeForm>(base: F, mine: F, theirs: F, opts: MergeOptions = {}): MergeResult<F> {
  const m = new Merger(opts.choose ?? (() => 'mine'));
  const serverFields = new Set(['questions', ...(opts.serverFields ?? [])]);
  const qSkip = opts.questionServerFields ?? QUESTION_SERVER_FIELDS;

  // The form's own fields.
  const form: Record<string, unknown> = { ...theirs };
  for (const field of new Set([...Object.keys(base), ...Object.keys(mine), ...Object.keys(theirs)])) {
    if (serverFields.has(field)) continue;
    const v = m.unit(`form:${field}`, { kind: 'form', field }, base[field], mine[field], theirs[field]);
    if (v === undefined) delete form[field];
    else form[field] = v;
  }

  // Which questions the result has, and their content.
  const byId = (f: F) => new Map(f.questions.map((q) => [q.id, q]));
  const [qb, qm, qt] = [byId(base), byId(mine), byId(theirs)];
  const kept = new Map<string, MergeQuestion>();
  /** Questions only one side has at the end, placed after their predecessor on that side. */
  const fromSide = new Map<string, Side>();
  for (const id of new Set([...qb.keys(), ...qm.keys(), ...qt.keys()])) {
    const [b, mq, tq] = [qb.get(id) ?? null, qm.get(id) ?? null, qt.get(id) ?? null];
    if (mq && tq) kept.set(id, m.question(b, mq, tq, qSkip));
    else if (!b) {
      // Added by one side (a new question of this tab, or one saved elsewhere).
      const q = (mq ?? tq)!;
      kept.set(id, q);
      fromSide.set(id, mq ? 'mine' : 'theirs');
      if (tq) m.taken.push({ id: `q:${id}:added`, place: { kind: 'question', id, field: 'added' } });
    } else if (mq || tq) {
      // Deleted by one side: a conflict if the other changed it, deleted otherwise.
      const alive = (mq ?? tq)!;
      const deletedBy: Side = mq ? 'theirs' : 'mine';
      const changed = changedFields(b, alive, qSkip);
      if (!changed.length) {
        if (deletedBy === 'theirs') m.taken.push({ id: `q:${id}:deleted`, place: { kind: 'question', id, field: 'deleted' } });
        continue;
      }
      const cid = `q:${id}:deleted`;
      m.conflicts.push({ id: cid, place: { kind: 'deleted', id, deletedBy, changed }, base: b, mine: mq, theirs: tq });
      const side = (opts.choose ?? (() => 'mine'))(cid);
      if (side !== deletedBy) {
        kept.set(id, alive);
        fromSide.set(id, deletedBy === 'mine' ? 'theirs' : 'mine');
      }
    }
  }

  // The order: of the questions both sides kept, the side that moved them (a conflict if both did, differently);
  // then the others after their predecessor on their side, this tab's first.
  const common = new Set([...kept.keys()].filter((id) => qb.has(id) && qm.has(id) && qt.has(id)));
  const [ob, om, ot] = [base, mine, theirs].map((f) => only(f.questions.map((q) => q.id), common)) as [string[], string[], string[]];
  let order: string[];
  if (sameList(om, ot) || sameList(ob, om)) {
    if (!sameList(om, ot)) m.taken.push({ id: 'order', place: { kind: 'order' } });
    order = ot;
  } else if (sameList(ob, ot)) order = om;
  else order = m.unit('order', { kind: 'order' }, ob, om, ot) as string[];
  order = [...order];
  // Theirs first: an addition of mine then goes right after the predecessor, before theirs at the same place.
  for (const side of ['theirs', 'mine'] as const) {
    const list = (side === 'mine' ? mine : theirs).questions.map((q) => q.id);
    list.forEach((id, i) => {
      if (fromSide.get(id) !== side || order.includes(id)) return;
      const prev = list.slice(0, i).reverse().find((p) => order.includes(p));
      order.splice(prev === undefined ? 0 : order.indexOf(prev) + 1, 0, id);
    });
  }

  // Jumps and conditions that name a question the result lacks go (as when a question is deleted in the builder).
  const gone = new Set([...qb.keys(), ...qm.keys(), ...qt.keys()].filter((id) => !kept.has(id)));
  const questions = order.map((id, i) => {
    const q = kept.get(id)!;
    const jumps = dropJumps(q.logic_jumps, gone);
    const withJumps = jumps === q.logic_jumps ? q : { ...q, logic_jumps: jumps };
    return has(withJumps, 'order') && withJumps.order !== i ? { ...withJumps, order: i } : withJumps;
  });
  if (has(form, 'start_logic_jumps')) form.start_logic_jumps = dropJumps(form.start_logic_jumps, gone);
  return { form: { ...form, questions } as unknown as F, conflicts: m.conflicts, taken: m.taken };
}

/** `list` without the jumps that go to, or test, a question in `gone` (the same list when none does). */
function dropJumps(list: unknown, gone: Set<string>): unknown {
  if (!Array.isArray(list) || !gone.size) return list;
  const kept = list.filter((j: { to?: unknown; conditions?: Array<{ field?: unknown }> }) => !(typeof j?.to === 'string' && gone.has(j.to)) && !(j?.conditions ?? []).some((c) => typeof c?.field === 'string' && gone.has(c.field)));
  return kept.length === list.length ? list : kept;
}
