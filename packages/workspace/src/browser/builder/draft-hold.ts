import type { Form, Question } from '../../data/forms';

/*
 * Unfinished parts of a draft stay in the browser until they are finished (docs/decisions.md, "The builder's
 * drafts"). The API refuses blank question titles, choice labels and sub-question titles (400, "must not be
 * blank"), and a draft is unfinished by nature: a new question has no title yet, Enter adds an empty choice.
 * So a save sends the draft without them, and the server's answer is given them back at their places: the
 * owner sees no error for being unfinished, and a question without a title is a publish check ("Needs a
 * title") instead. Jumps that name a held question are held with it, and a form title cleared to type
 * another is not sent until it has one.
 */

/** Blank by the API's rule (docs/decisions.md, "Forms"): white space, format characters, blank-looking fillers. */
const BLANK = /^[\s\u00AD\u034F\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u2800\u3164\uFEFF\uFFA0]*$/u;
export const isBlank = (v: unknown): boolean => typeof v !== 'string' || BLANK.test(v);

type Item = Record<string, unknown>;
const choicesOf = (q: Question): Item[] | null => (Array.isArray(q.properties?.choices) ? (q.properties.choices as Item[]) : null);
const subsOf = (q: Question): Item[] | null => (Array.isArray(q.properties?.questions) ? (q.properties.questions as Item[]) : null);
const keepChoice = (c: Item) => !isBlank(c.label);
const keepSub = (s: Item) => !isBlank(s.title);

/** Why a question cannot be saved yet, in plain words; null when it can. */
export function unfinishedReason(q: Question): string | null {
  if (isBlank(q.title)) return 'Needs a title';
  const choices = choicesOf(q);
  if (choices && !choices.some(keepChoice)) return 'Needs a choice';
  const subs = subsOf(q);
  if (subs && !subs.some(keepSub)) return 'Needs a question';
  return null;
}

/** Questions the next save keeps back, with the reason. */
export function unfinishedQuestions(form: Form): Map<string, string> {
  const out = new Map<string, string>();
  for (const q of form.questions) {
    const why = unfinishedReason(q);
    if (why) out.set(q.id, why);
  }
  return out;
}

function namesHeld(jump: unknown, held: Set<string>): boolean {
  const j = jump as { to?: string; conditions?: Array<{ field?: string }> };
  return (j.to !== undefined && held.has(j.to)) || (j.conditions ?? []).some((c) => c.field !== undefined && held.has(c.field));
}

/** The draft as a save sends it: held parts left out. `changed` is false when nothing was held. */
export function savable(draft: Form): { form: Form; changed: boolean } {
  const held = new Set(unfinishedQuestions(draft).keys());
  const blankTitle = isBlank(draft.title);
  let changed = held.size > 0 || blankTitle;
  const jumps = (list: unknown) => {
    if (!Array.isArray(list) || !held.size) return list;
    const kept = list.filter((j) => !namesHeld(j, held));
    if (kept.length !== list.length) changed = true;
    return kept;
  };
  const questions = draft.questions
    .filter((q) => !held.has(q.id))
    .map((q) => {
      let properties = q.properties;
      const choices = choicesOf(q);
      if (choices && !choices.every(keepChoice)) properties = { ...properties, choices: choices.filter(keepChoice) };
      const subs = subsOf(q);
      if (subs && !subs.every(keepSub)) properties = { ...properties, questions: subs.filter(keepSub) };
      if (properties !== q.properties) changed = true;
      return { ...q, properties, logic_jumps: jumps(q.logic_jumps) as unknown[] };
    });
  if (!changed) return { form: draft, changed: false };
  const form = { ...draft, questions, start_logic_jumps: jumps(draft.start_logic_jumps) as Form['start_logic_jumps'] };
  // A form's title cleared to type another: the saved one stays until then (an update may leave it out).
  if (blankTitle) delete (form as Partial<Form>).title;
  return { form, changed: true };
}

/** `local` with its held items at their places and the server's `saved` items in the others (null: lengths differ). */
function weave<T>(local: T[], keep: (x: T) => boolean, saved: T[], each: (l: T, s: T) => T = (_l, s) => s): T[] | null {
  if (local.filter(keep).length !== saved.length) return null;
  let i = 0;
  return local.map((x) => (keep(x) ? each(x, saved[i++]!) : x));
}

/**
 * The server's answer to a save of `savable(local)`, given back what was held: held questions, choices,
 * sub-questions and jumps return to their places. Falls back to the answer alone if its lists do not line up.
 */
export function graft(local: Form, answer: Form): Form {
  const held = new Set(unfinishedQuestions(local).keys());
  const jumps = (mine: unknown, theirs: unknown) => (Array.isArray(mine) && Array.isArray(theirs) && held.size ? (weave(mine, (j) => !namesHeld(j, held), theirs) ?? theirs) : theirs);
  const questions = weave(local.questions, (q) => !held.has(q.id), answer.questions, (mine, theirs) => {
    let properties = theirs.properties;
    const [c1, c2] = [choicesOf(mine), choicesOf(theirs)];
    if (c1 && c2 && !c1.every(keepChoice)) properties = { ...properties, choices: weave(c1, keepChoice, c2) ?? c2 };
    const [s1, s2] = [subsOf(mine), subsOf(theirs)];
    if (s1 && s2 && !s1.every(keepSub)) properties = { ...properties, questions: weave(s1, keepSub, s2) ?? s2 };
    return { ...theirs, properties, logic_jumps: jumps(mine.logic_jumps, theirs.logic_jumps) as unknown[] };
  });
  if (!questions) return answer;
  return { ...answer, ...(isBlank(local.title) ? { title: local.title } : {}), questions: questions.map((q, order) => (q.order === order ? q : { ...q, order })), start_logic_jumps: jumps(local.start_logic_jumps, answer.start_logic_jumps) as Form['start_logic_jumps'] };
}
