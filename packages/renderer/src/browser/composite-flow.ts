import { nextIndex } from '../../../core/src/logic/jumps.js';
import type { LogicContext } from '../../../core/src/logic/conditions.js';
import { textsIn, translateQuestion } from './form-language.js';
import type { PublicQuestion } from './types.js';

/*
 * Composite questions on the respondent's page (docs/logic.md "Composite"). The public form carries each composite's
 * components grouped (`properties.components`: form id, title, questions with their own ids and logic, start
 * jumps). The page answers them in place as one flow: each component's questions are put where the composite
 * stands, under page ids `<form id>-<question id>` (recalls can name them), with their jumps and recalls renamed so
 * that each component keeps its own logic. Steps that show nothing (`pass`) stand before each component (its start
 * jumps) and after the last (the composite's own jumps); a component's `end` goes on to the step after it. At
 * submission the component answers go back into the composite's one answer, keyed `<form id>/<question id>`.
 * A component's texts are shown in the respondent's language when its pinned version has them (its
 * `translations`, docs/languages.md "Composite forms"), each text falling back to the component's own.
 */

interface Component {
  form_id: string;
  title: string;
  /** The component's texts by language and path, for the composite's languages only (public-view.ts). */
  translations?: Record<string, Record<string, string>>;
  questions: PublicQuestion[];
  start_logic_jumps?: unknown[];
}

/** A question of the page's flow: a component's question knows its composite and its answer's key. */
export type FlowQuestion = PublicQuestion & {
  /** The composite question it belongs to. */
  composite_of?: string;
  /** Its key in the composite's answer. */
  key?: string;
  /** A step the page passes without showing anything. */
  pass?: true;
  /** The title of the component form it comes from, shown above it. */
  part?: string;
};

const componentsOf = (q: PublicQuestion): Component[] =>
  q.type === 'composite' && Array.isArray(q.properties?.components) ? (q.properties.components as Component[]).filter((c) => c && Array.isArray(c.questions)) : [];

const RECALL = /\{answer\.([A-Za-z0-9_-]{1,100})/g;

/** A component's jumps with its question ids renamed (`rename`), its `end` going to `after`. */
function renamedJumps(jumps: unknown, rename: (id: string) => string, after: string): unknown[] {
  if (!Array.isArray(jumps)) return [];
  return jumps.map((j: { to?: string; conditions?: Array<{ field?: string }> }) => ({
    ...j,
    ...(typeof j.to === 'string' ? { to: j.to === 'end' ? after : rename(j.to) } : {}),
    ...(Array.isArray(j.conditions)
      ? { conditions: j.conditions.map((c) => (c && typeof c.field === 'string' && !c.field.includes(':') ? { ...c, field: rename(c.field) } : c)) }
      : {}),
  }));
}

/** The page's flow: each composite with components replaced by its components' questions (see above), in `lang`. */
export function expandComposites(questions: PublicQuestion[], lang?: string | null): FlowQuestion[] {
  const out: FlowQuestion[] = [];
  for (const q of questions) {
    const components = componentsOf(q);
    if (!components.length) {
      out.push(q);
      continue;
    }
    const endId = `${q.id}-end`;
    // The step before component i: the composite's own id first, so that jumps to the composite land on it.
    const startId = (i: number) => (i === 0 ? q.id : `${q.id}-${components[i]!.form_id}`);
    components.forEach((c, i) => {
      const texts = lang ? c.translations?.[lang] : undefined;
      const tr = textsIn(texts ?? {});
      const title = tr('title', c.title) as string;
      const rename = (id: string) => `${c.form_id}-${id}`;
      const after = i + 1 < components.length ? startId(i + 1) : endId;
      const text = (s: string | null) => (s ? s.replace(RECALL, (_m, id: string) => `{answer.${rename(id)}`) : s);
      out.push({ ...q, id: startId(i), title, properties: {}, logic_jumps: renamedJumps(c.start_logic_jumps, rename, after), pass: true });
      for (const written of [...c.questions].sort((a, b) => a.order - b.order)) {
        const cq = texts ? translateQuestion(written, tr) : written;
        out.push({
          ...cq,
          id: rename(cq.id),
          title: text(cq.title) ?? '',
          description: text(cq.description),
          logic_jumps: renamedJumps(cq.logic_jumps, rename, after),
          composite_of: q.id,
          key: `${c.form_id}/${cq.id}`,
          part: title,
        });
      }
    });
    out.push({ ...q, id: endId, properties: {}, pass: true });
  }
  return out;
}

/** The first step from `i` on that shows something: steps that show nothing are passed along their jumps. */
export function passSteps(questions: FlowQuestion[], i: number, ctx: LogicContext): number {
  for (let steps = 0; i < questions.length && questions[i]!.pass && steps <= questions.length; steps++) i = nextIndex(questions, i, ctx);
  return i;
}

/** The answers to send: component answers gathered into their composite's one answer (keyed `<form id>/<question id>`). */
export function foldComposites(questions: FlowQuestion[], answers: Array<{ question_id: string; value: unknown }>): Array<{ question_id: string; value: unknown }> {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const out: Array<{ question_id: string; value: unknown }> = [];
  const folded = new Map<string, Record<string, unknown>>();
  for (const a of answers) {
    const q = byId.get(a.question_id);
    if (!q?.composite_of || !q.key) {
      out.push(a);
      continue;
    }
    let value = folded.get(q.composite_of);
    if (!value) {
      folded.set(q.composite_of, (value = {}));
      out.push({ question_id: q.composite_of, value });
    }
    value[q.key] = a.value;
  }
  return out;
}

/** The respondent's path without the steps that show nothing: what the progress and the counter count. */
export const shownPath = (questions: FlowQuestion[], path: string[]) => path.filter((id) => !questions.find((q) => q.id === id)?.pass);

/** The index of the first question a refusal names: a component's by its key, others by id; steps never. */
export function namedIndex(questions: FlowQuestion[], ids: readonly string[]): number {
  return questions.findIndex((q) => !q.pass && (ids.includes(q.id) || (q.key !== undefined && ids.includes(q.key))));
}
