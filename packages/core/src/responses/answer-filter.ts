import { badRequest } from '../errors';
import type { Question } from '../domain/types';
import type { ConditionOp } from '../logic/conditions';
import { isAnswerable } from './answer-validation';
import { filterOpsOf } from './filter-ops';

const PRESENCE: readonly ConditionOp[] = ['is_answered', 'is_not_answered'];

/*
 * Filters by answer (issue 37; docs/responses-and-webhooks.md, "Filtering by answer"; docs/decisions.md,
 * "Filters by answer"). One `filter` query parameter, JSON text, read the same way by the responses list,
 * the analytics and summaries, the funnel's siblings and every export format:
 *
 *   filter={"match":"all","conditions":[{"question_id":"q_1","op":"equals","value":"Berlin"},
 *                                       {"question_id":"q_2","op":"greater_or_equal","value":9}]}
 *
 * Operators are the logic's (logic/conditions.ts), offered per question kind as the builder offers them
 * (with "at least" and "at most" for numbers and "is empty" for every kind). Each condition is checked
 * against the form's current questions here, so the storage only ever sees tests it can run: a test on the
 * stored answer keys (`key`), on the numbers (`num`), on an answer's presence, or on text (a scan).
 */

/** How the storage runs one test (storage-typeorm repositories/answer-filter-sql.ts). */
export type AnswerTestVia = 'key' | 'num' | 'text' | 'presence';

/** One checked condition: `values` are text (numbers as decimal text), one per operand. */
export interface AnswerTest {
  question_id: string;
  op: ConditionOp;
  via: AnswerTestVia;
  values: string[];
}

/** Checked conditions joined by `all` (every one holds) or `any` (at least one). */
export interface AnswerFilter {
  match: 'all' | 'any';
  tests: AnswerTest[];
}

/** At most this many conditions, and this much JSON: a filter is typed by a person or a program, not generated unbounded. */
export const MAX_CONDITIONS = 20;
export const MAX_FILTER_CHARS = 8000;
const MAX_TEXT = 200;
const MAX_LIST = 100;

/** The operators a filter accepts for a question of `type` ([] for kinds not answered by respondents). */
export function filterOpsFor(type: string): readonly ConditionOp[] {
  return isAnswerable(type) ? filterOpsOf(type) : [];
}

const NUMERIC = new Set(['number', 'rating', 'opinion_scale']);
const KEYED = new Set(['multiple_choice', 'dropdown', 'yes_no', 'date']);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const bad = (where: string, why: string) => badRequest(`filter${where}: ${why}`, { field: 'filter' });

/**
 * The `filter` query parameter, checked against the form's current questions; `undefined` when absent or
 * without conditions. 400 (field `filter`) naming the condition and the problem for anything else.
 */
export function parseAnswerFilter(raw: unknown, questions: Question[]): AnswerFilter | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string') throw bad('', 'must be given once, as JSON text');
  if (raw.length > MAX_FILTER_CHARS) throw bad('', `must be at most ${MAX_FILTER_CHARS} characters`);
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    throw bad('', 'is not valid JSON; expected {"match":"all","conditions":[{"question_id","op","value"}]}');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw bad('', 'must be a JSON object {match, conditions}');
  const { match = 'all', conditions, ...rest } = body as Record<string, unknown>;
  const unknownKey = Object.keys(rest)[0];
  if (unknownKey !== undefined) throw bad('', `has an unknown field ${JSON.stringify(unknownKey)} (expected match, conditions)`);
  if (match !== 'all' && match !== 'any') throw bad('.match', 'must be "all" or "any"');
  if (!Array.isArray(conditions)) throw bad('.conditions', 'must be an array');
  if (conditions.length > MAX_CONDITIONS) throw bad('.conditions', `at most ${MAX_CONDITIONS} conditions`);
  if (conditions.length === 0) return undefined;
  const byId = new Map(questions.map((q) => [q.id, q]));
  const tests = conditions.map((c, i) => checkCondition(c, `.conditions[${i}]`, byId));
  return { match, tests };
}

function checkCondition(c: unknown, at: string, byId: Map<string, Question>): AnswerTest {
  if (!c || typeof c !== 'object' || Array.isArray(c)) throw bad(at, 'must be an object {question_id, op, value}');
  const { question_id, op, value, ...rest } = c as Record<string, unknown>;
  const unknownKey = Object.keys(rest)[0];
  if (unknownKey !== undefined) throw bad(at, `has an unknown field ${JSON.stringify(unknownKey)} (expected question_id, op, value)`);
  if (typeof question_id !== 'string') throw bad(`${at}.question_id`, 'must be a question id');
  const q = byId.get(question_id);
  if (!q) throw bad(`${at}.question_id`, `${JSON.stringify(question_id.slice(0, 100))} is not a question of this form`);
  const ops = filterOpsFor(q.type);
  if (ops.length === 0) throw bad(`${at}.question_id`, `a ${q.type} question is not answered by respondents and cannot be filtered`);
  if (typeof op !== 'string' || !ops.includes(op as ConditionOp)) {
    throw bad(`${at}.op`, `${JSON.stringify(String(op).slice(0, 40))} does not apply to a ${q.type} question; use one of ${ops.join(', ')}`);
  }
  const o = op as ConditionOp;
  if (PRESENCE.includes(o)) {
    if (value !== undefined && value !== null) throw bad(`${at}.value`, `${o} takes no value`);
    return { question_id, op: o, via: 'presence', values: [] };
  }
  const where = `${at}.value`;
  if (o === 'between') {
    if (!Array.isArray(value) || value.length !== 2) throw bad(where, 'between takes [low, high]');
    const [lo, hi] = value.map((v) => operand(q, v, where));
    if (NUMERIC.has(q.type) ? Number(lo) > Number(hi) : lo! > hi!) throw bad(where, 'low must not be above high');
    return { question_id, op: o, via: viaOf(q), values: [lo!, hi!] };
  }
  if (o === 'is_any_of') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST) throw bad(where, `is_any_of takes a list of 1 to ${MAX_LIST} values`);
    return { question_id, op: o, via: viaOf(q), values: [...new Set(value.map((v) => operand(q, v, where)))] };
  }
  if (Array.isArray(value)) throw bad(where, `${o} takes one value, not a list`);
  const text = operand(q, value, where, o === 'contains' || o === 'not_contains' || o === 'begins_with' || o === 'ends_with');
  // "contains" on a choice question reads its keys (the labels); on text, the stored answers.
  return { question_id, op: o, via: viaOf(q), values: [text] };
}

const viaOf = (q: Question): AnswerTestVia => (NUMERIC.has(q.type) ? 'num' : KEYED.has(q.type) ? 'key' : 'text');

/** One operand as the storage compares it: a number as decimal text, yes/no as `true`/`false`, a choice as its label. */
function operand(q: Question, v: unknown, where: string, partial = false): string {
  if (NUMERIC.has(q.type)) {
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw bad(where, `must be a number for a ${q.type} question`);
    return String(n);
  }
  if (q.type === 'yes_no') {
    if (v === true || v === 'true') return 'true';
    if (v === false || v === 'false') return 'false';
    throw bad(where, 'must be true or false for a yes_no question');
  }
  if (q.type === 'date') {
    if (typeof v !== 'string' || !DATE.test(v) || Number.isNaN(Date.parse(`${v}T00:00:00Z`))) throw bad(where, 'must be a date YYYY-MM-DD for a date question');
    return v;
  }
  if (typeof v !== 'string' && typeof v !== 'number') throw bad(where, 'must be text');
  const s = String(v);
  if (s.trim() === '') throw bad(where, 'must not be empty (use is_not_answered for an empty answer)');
  if (s.length > MAX_TEXT) throw bad(where, `at most ${MAX_TEXT} characters`);
  if (s.includes('\0')) throw bad(where, 'must not contain a NUL character');
  if ((q.type === 'multiple_choice' || q.type === 'dropdown') && !partial) {
    // A choice is matched as the logic matches it, ignoring case; the stored key is the label as written.
    const labels = ((q.properties.choices as Array<{ label?: unknown }> | undefined) ?? []).map((c) => String(c.label ?? ''));
    const label = labels.find((l) => l.toLowerCase() === s.toLowerCase());
    if (label !== undefined) return label;
    if (q.type === 'multiple_choice' && q.properties.allow_other === true) return s;
    throw bad(where, `${JSON.stringify(s.slice(0, 100))} is not one of the choices`);
  }
  return s;
}

/** `version`: a published version's number (1, 2, ...); 400 for anything else. */
export function parseVersion(raw: unknown): number | undefined {
  if (raw === undefined) return undefined;
  const n = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw badRequest('version: must be a version number (1, 2, ...)', { field: 'version' });
  return n;
}

/** Text of the filter for a cursor's fingerprint: the same filter always gives the same text. */
export const answerFilterTag = (f: AnswerFilter | undefined) => (f ? JSON.stringify([f.match, f.tests.map((t) => [t.question_id, t.op, t.values])]) : null);
