import type { Answer, FormRecord, OutboxItem, Question, ResponseRecord } from '../domain/types';
import type { CsvLine } from '../ports/storage/responses';
import type { WebhookTarget } from '../webhooks/webhook-dispatcher';
import { badRequest, conflict } from '../errors';
import type { Storage } from '../ports/storage';
import { visiblePath } from '../logic/jumps';
import { isClosed } from '../forms/form-model';
import { componentKey, KEY_SEPARATOR, type PinnedComponent, pinnedComponents, readComponent } from '../forms/composite-components';
import { type AnswerContext, checkAnswers } from './answer-validation';
import { computeQuizResults } from './quiz';

/*
 * A composite's submission (docs/logic.md "Composite", docs/decisions.md "Composite forms"). The respondent's
 * answer to a composite question is one object keyed `<component form id>/<question id>`; each component's part
 * is checked against the component's pinned version with its own logic and required questions, and the
 * completed submission stores one response in each component form beside the composite's own, in one transaction.
 */

/** One component's answers (by its own question ids) from a composite question on the respondent's path. */
export interface ComponentPart {
  question_id: string;
  component: PinnedComponent;
  answers: Answer[];
}

export interface CompositePlan {
  /** The answers for the composite form's own checks: a composite answer with components reads as none there. */
  ownAnswers: Answer[];
  /** The components answered through composite questions on the path (completed submissions only). */
  parts: ComponentPart[];
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * Splits and checks the composite answers of a submission; a 400 names the composite question and the keys at fault.
 * `hidden`: the composite's hidden field values, which its components' logic reads by name as the page does.
 */
export function planComposite(
  questions: Question[],
  answers: Answer[],
  shown: ReadonlySet<string>,
  complete: boolean,
  hidden: Record<string, string> = {},
  ctx: AnswerContext = {},
): CompositePlan {
  const composites = new Map(questions.filter((q) => pinnedComponents(q).length).map((q) => [q.id, q]));
  if (!composites.size) return { ownAnswers: answers, parts: [] };
  const parts: ComponentPart[] = [];
  const ownAnswers = answers.map((a, index) => {
    const q = composites.get(a.question_id);
    if (!q) return a;
    const value = a.value ?? null;
    if (value !== null && !isObject(value)) throw badRequest(`answers.${index}.value: expected an object keyed <form id>/<question id>`, { field: `answers.${index}.value`, question_ids: [q.id] });
    const given = (value ?? {}) as Record<string, unknown>;
    const components = pinnedComponents(q);
    const byForm = new Map(components.map((c) => [c.form_id, { c, answers: [] as Answer[] }]));
    for (const [key, v] of Object.entries(given)) {
      const cut = key.indexOf(KEY_SEPARATOR);
      const part = cut > 0 ? byForm.get(key.slice(0, cut)) : undefined;
      if (!part) throw badRequest(`answers.${index}.value: ${JSON.stringify(key.slice(0, 120))} is not a question of this composite`, { field: `answers.${index}.value`, question_ids: [q.id] });
      part.answers.push({ question_id: key.slice(cut + 1), value: v ?? null });
    }
    const onPath = shown.has(q.id);
    for (const { c, answers: own } of byForm.values()) {
      const byId = Object.fromEntries(own.map((x) => [x.question_id, x.value]));
      const path = new Set(visiblePath(c.questions, c.start_logic_jumps, { answers: byId, hidden }));
      const p = checkAnswers(c.questions, own, complete && onPath, { ...ctx, shown: path });
      const keys = (ids: string[]) => ids.map((id) => componentKey(c.form_id, id));
      if (p.unknown.length) throw badRequest(`answers.${index}.value: ${keys(p.unknown).join(', ')}: not a question of this composite`, { field: `answers.${index}.value`, question_ids: [q.id] });
      if (p.invalid.length) {
        const detail = p.invalid.map((i) => `answers.${index}.value.${componentKey(c.form_id, i.question_id)}: ${i.problem}`).join('; ');
        // The page goes back to the first question named: the component's own, by its key (docs/respondents.md).
        throw badRequest(detail, { field: `answers.${index}.value`, question_ids: [q.id, ...keys(p.invalid.map((i) => i.question_id))] });
      }
      if (p.missing.length) throw badRequest('answers: required questions are not answered', { field: 'answers', question_ids: [q.id, ...keys(p.missing)] });
      if (complete && onPath) parts.push({ question_id: q.id, component: c, answers: own });
    }
    return { question_id: a.question_id, value: null };
  });
  // A composite on the path that was not answered at all: its components' required questions are missing.
  if (complete) {
    for (const q of composites.values()) {
      if (!shown.has(q.id) || answers.some((a) => a.question_id === q.id)) continue;
      for (const c of pinnedComponents(q)) {
        const path = new Set(visiblePath(c.questions, c.start_logic_jumps, { answers: {}, hidden }));
        const missing = checkAnswers(c.questions, [], true, { shown: path }).missing;
        if (missing.length) throw badRequest('answers: required questions are not answered', { field: 'answers', question_ids: [q.id, ...missing.map((id) => componentKey(c.form_id, id))] });
        parts.push({ question_id: q.id, component: c, answers: [] });
      }
    }
  }
  return { ownAnswers, parts };
}

/** A component response ready to be written, with its form as it stands and its version's questions. */
export interface ComponentWrite {
  form: FormRecord;
  response: ResponseRecord;
  questions: Question[];
  snapshot: { questions: Question[]; hidden_fields: string[] };
  /** The component's live response limit (its count is claimed below it), or null. */
  limit: number | null;
}

/**
 * The component responses of a completed composite response: each component must still be the composite's,
 * published and open (409 `composite_deleted` / `composite_unpublished` / `form_closed`, with `composite_ids`).
 * `newId` makes the responses' ids.
 */
export async function componentWrites(storage: Storage, parent: FormRecord, response: ResponseRecord, parts: ComponentPart[], now: Date, newId: () => string): Promise<ComponentWrite[]> {
  const out: ComponentWrite[] = [];
  for (const part of parts) {
    const { form, version } = await readComponent(storage, parent, part.component.form_id);
    const ids = [part.component.form_id];
    if (!form) throw conflict('A form this composite is made of no longer exists', { reason: 'composite_deleted', composite_ids: ids });
    if (!version) throw conflict('A form this composite is made of is not published', { reason: 'composite_unpublished', composite_ids: ids });
    if (isClosed(version.snapshot, form.response_count, now)) throw conflict('A form this composite is made of is closed', { reason: 'form_closed', composite_ids: ids });
    const c = part.component;
    const limit = typeof version.snapshot.response_limit === 'number' ? version.snapshot.response_limit : null;
    out.push({
      form,
      questions: c.questions,
      snapshot: { questions: c.questions, hidden_fields: c.hidden_fields },
      limit,
      response: {
        ...response,
        id: newId(),
        form_id: form.id,
        version_id: c.version_id,
        version: c.version,
        answers: part.answers,
        completed_at: response.completed_at ?? now.toISOString(),
        metadata: {
          user_agent: response.metadata.user_agent,
          referrer: response.metadata.referrer,
          // The composite's hidden values under the names the component declares, as its page read them.
          ...hiddenOf(c, response.metadata.hidden),
          composite: { form_id: parent.id, response_id: response.id, question_id: part.question_id },
        },
        // A quiz component is scored as its own submissions are (its settings stay private, as pinned).
        quiz_results: computeQuizResults(c.mode ?? 'standard', c.quiz_settings, c.questions, part.answers),
        resume_token_hash: null,
        unique_visitor: null,
        language: null,
      } as ResponseRecord,
    });
  }
  return out;
}

/** The composite's hidden values the component declares (none: no `hidden` key). */
function hiddenOf(c: PinnedComponent, given: Record<string, string> | undefined): { hidden?: Record<string, string> } {
  const kept = Object.entries(given ?? {}).filter(([name]) => c.hidden_fields.includes(name));
  return kept.length ? { hidden: Object.fromEntries(kept) } : {};
}

/** The composite's own record lists its component responses (`metadata.components`). */
export function withComponentLinks(response: ResponseRecord, writes: ComponentWrite[]): ResponseRecord {
  if (!writes.length) return response;
  const components = writes.map((w) => ({ question_id: (w.response.metadata as { composite: { question_id: string } }).composite.question_id, form_id: w.form.id, response_id: w.response.id }));
  return { ...response, metadata: { ...response.metadata, components } as ResponseRecord['metadata'] };
}

/** A completed composite response's component writes and each one's webhook targets, read before its transaction. */
export interface PreparedComponents {
  writes: ComponentWrite[];
  targets: WebhookTarget[][];
}

export async function prepareComponents(
  storage: Storage,
  webhooks: { targetsFor(form: FormRecord): Promise<WebhookTarget[]> },
  parent: FormRecord,
  response: ResponseRecord,
  parts: ComponentPart[],
  now: Date,
  newId: () => string,
): Promise<PreparedComponents> {
  const writes = parts.length ? await componentWrites(storage, parent, response, parts, now, newId) : [];
  return { writes, targets: await Promise.all(writes.map((w) => webhooks.targetsFor(w.form))) };
}

/** How the submission writes a response's export line, queues its webhooks and runs its listeners. */
export interface ComponentSink {
  csv(snapshot: ComponentWrite['snapshot'], response: ResponseRecord): CsvLine;
  enqueue(tx: Storage, form: FormRecord, response: ResponseRecord, targets: WebhookTarget[], questions: Question[]): Promise<OutboxItem[]>;
  completed(tx: Storage, held: { form: FormRecord; response: ResponseRecord; questions: Question[] }): Promise<boolean>;
}

/**
 * Stores the component responses in the composite's transaction, each counted (its response limit claimed), its
 * webhooks queued and its listeners run. In form id order: every transaction takes the component forms' rows in
 * one order, so two composites naming the same forms in another order never deadlock on PostgreSQL (a composite is
 * never a component, so its own row, taken first, is outside that order).
 */
export async function writeComponentsIn(tx: Storage, prepared: PreparedComponents, sink: ComponentSink): Promise<{ items: OutboxItem[]; queued: boolean }> {
  const order = prepared.writes.map((w, i) => [w, prepared.targets[i]!] as const).sort(([a], [b]) => (a.form.id < b.form.id ? -1 : a.form.id > b.form.id ? 1 : 0));
  const items: OutboxItem[] = [];
  let queued = false;
  for (const [w, targets] of order) {
    await tx.responses.insert(w.response, sink.csv(w.snapshot, w.response));
    if (w.limit === null) await tx.forms.addResponseCount(w.form.id, 1);
    else if ((await tx.forms.claimResponseSlot(w.form.id, w.limit)) === null) throw conflict('A form this composite is made of is closed', { reason: 'form_closed', composite_ids: [w.form.id] });
    items.push(...(await sink.enqueue(tx, w.form, w.response, targets, w.questions)));
    queued = (await sink.completed(tx, { form: w.form, response: w.response, questions: w.questions })) || queued;
  }
  return { items, queued };
}
