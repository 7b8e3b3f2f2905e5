import type { Answer, Question } from '../domain/types';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

type Check = (value: unknown, q: Question) => string | null;

const isString = (v: unknown): v is string => typeof v === 'string';
const choiceLabels = (q: Question) => ((q.properties.choices as Array<{ label: string }> | undefined) ?? []).map((c) => c.label);

function validDate(v: unknown): boolean {
  if (!isString(v)) return false;
  const m = ISO_DATE.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}

function numberIn(v: unknown, min: number, max: number, integer: boolean): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'must be a number';
  if (integer && !Number.isInteger(v)) return 'must be a whole number';
  if (v < min || v > max) return `must be between ${min} and ${max}`;
  return null;
}

function subFieldKeys(q: Question): string[] {
  if (q.type === 'contact_info' || q.type === 'address') return (q.properties.fields as string[] | undefined) ?? [];
  return ((q.properties.questions as Array<{ id: string }> | undefined) ?? []).map((s) => s.id);
}

const objectOfFields: Check = (v, q) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return 'must be an object of sub-field values';
  const keys = subFieldKeys(q);
  for (const [k, sub] of Object.entries(v as Record<string, unknown>)) {
    if (!keys.includes(k)) return `has an unknown sub-field ${k}`;
    if (sub !== null && !['string', 'number', 'boolean'].includes(typeof sub)) return `sub-field ${k} must be a string, number or boolean`;
  }
  return null;
};

/** Value checks by question type: the accepted values per type in docs/decisions.md ("Responses and uploads"). */
const CHECKS: Record<string, Check> = {
  short_text: (v, q) => {
    if (!isString(v)) return 'must be a string';
    const max = q.properties.max_length as number | undefined;
    return max !== undefined && v.length > max ? `must be at most ${max} characters` : null;
  },
  long_text: (v, q) => CHECKS.short_text!(v, q),
  email: (v) => (!isString(v) ? 'must be a string' : EMAIL.test(v) ? null : 'must be an email address'),
  dropdown: (v, q) => (!isString(v) ? 'must be a string' : choiceLabels(q).includes(v) ? null : 'is not one of the choices'),
  multiple_choice: (v, q) => {
    const labels = choiceLabels(q);
    const other = q.properties.allow_other === true;
    const ok = (s: unknown) => isString(s) && (other || labels.includes(s));
    if (q.properties.allow_multiple === true) {
      if (!Array.isArray(v)) return 'must be an array of choices';
      if (new Set(v).size !== v.length) return 'repeats a choice';
      return v.every(ok) ? null : 'has a value that is not one of the choices';
    }
    if (!isString(v)) return 'must be a string';
    return ok(v) ? null : 'is not one of the choices';
  },
  rating: (v, q) => numberIn(v, 1, (q.properties.steps as number | undefined) ?? 5, true),
  opinion_scale: (v, q) =>
    numberIn(v, (q.properties.min as number | undefined) ?? 0, (q.properties.max as number | undefined) ?? 10, true),
  number: (v, q) =>
    numberIn(v, (q.properties.min as number | undefined) ?? -Number.MAX_VALUE, (q.properties.max as number | undefined) ?? Number.MAX_VALUE, false),
  date: (v) => (validDate(v) ? null : 'must be an ISO 8601 date (YYYY-MM-DD)'),
  yes_no: (v) => (typeof v === 'boolean' ? null : 'must be true or false'),
  file_upload: (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return 'must be an object {url, name}';
    const { url, name, ...rest } = v as Record<string, unknown>;
    if (!isString(url) || !isString(name) || Object.keys(rest).length) return 'must be an object {url, name}';
    return null;
  },
  question_group: objectOfFields,
  multi_question_page: objectOfFields,
  contact_info: objectOfFields,
  address: objectOfFields,
};

/** True when a value counts as no answer (for required checks). */
export function isEmptyAnswer(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return v.trim() === '';
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object') return Object.values(v as object).every(isEmptyAnswer);
  return false;
}

export interface AnswerProblems {
  unknown: string[];
  invalid: Array<{ question_id: string; problem: string }>;
  missing: string[];
}

/**
 * Checks answers against the questions of the version being answered. `complete` adds the required
 * check. Empty values (null, '', []) are allowed for any type and count as no answer.
 */
export function checkAnswers(questions: Question[], answers: Answer[], complete: boolean): AnswerProblems {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const problems: AnswerProblems = { unknown: [], invalid: [], missing: [] };
  for (const a of answers) {
    const q = byId.get(a.question_id);
    if (!q) {
      problems.unknown.push(a.question_id);
      continue;
    }
    if (isEmptyAnswer(a.value)) continue;
    const problem = CHECKS[q.type]?.(a.value, q) ?? null;
    if (problem) problems.invalid.push({ question_id: q.id, problem });
  }
  if (complete) {
    const answered = new Set(answers.filter((a) => !isEmptyAnswer(a.value)).map((a) => a.question_id));
    problems.missing = questions.filter((q) => q.required && !answered.has(q.id)).map((q) => q.id);
  }
  return problems;
}
