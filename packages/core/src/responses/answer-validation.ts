import type { Answer, Question } from '../domain/types';
import { describeValue } from '../parse';
import { isBlank } from '../strings';
import { isEmailAddress } from '../email-address';
import { validationProblem } from '../logic/validations';

/** Answer values are checked exactly against the table in docs/decisions.md ("Answer values"). */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const PHONE = /^\+?[0-9 ()./-]{3,40}$/;
/** Longest free-text answer (a question's `max_length` may lower it). */
export const MAX_TEXT_ANSWER = 100_000;
/** Longest sub-field value or "other" choice. */
const MAX_SHORT_ANSWER = 1000;

/** What the checks need beyond the question: whether a URL names an upload of this form. */
export interface AnswerContext {
  isUploadUrl?: (url: string) => boolean;
  /**
   * The questions the respondent was shown, by the logic jumps (docs/decisions.md "Logic and
   * validations"): a required question the jumps skipped is not missing. Absent: all of them.
   */
  shown?: ReadonlySet<string>;
}

type Check = (value: unknown, q: Question, ctx: AnswerContext) => string | null;

const isString = (v: unknown): v is string => typeof v === 'string';
const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const expected = (what: string, v: unknown) => `expected ${what}, received ${describeValue(v)}`;
const choiceLabels = (q: Question) => ((q.properties.choices as Array<{ label: string }> | undefined) ?? []).map((c) => c.label);

function validDate(v: string): boolean {
  const m = ISO_DATE.exec(v);
  if (!m) return false;
  const d = new Date(`${v}T00:00:00.000Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}

function httpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function text(v: unknown, max: number): string | null {
  if (!isString(v)) return expected('a string', v);
  return v.length > max ? `must be at most ${max} characters` : null;
}

function numberIn(v: unknown, min: number, max: number, integer: boolean): string | null {
  if (typeof v !== 'number') return expected(integer ? 'a whole number' : 'a number', v);
  if (!Number.isFinite(v)) return 'must be a finite number';
  if (integer && !Number.isInteger(v)) return expected('a whole number', v);
  if (v < min || v > max) return `must be between ${min} and ${max}, received ${v}`;
  return null;
}

const emailCheck = (v: unknown) => text(v, 254) ?? (isEmailAddress(v as string) ? null : 'must be an email address');
const dateCheck = (v: unknown) => (!isString(v) ? expected('an ISO 8601 date string (YYYY-MM-DD)', v) : validDate(v) ? null : 'must be an ISO 8601 date (YYYY-MM-DD)');

/** Sub-field values by the sub-field's own type: sub-questions' types, contact_info's email and phone. */
const SUB_CHECKS: Record<string, (v: unknown) => string | null> = {
  short_text: (v) => text(v, MAX_SHORT_ANSWER),
  long_text: (v) => text(v, MAX_TEXT_ANSWER),
  dropdown: (v) => text(v, MAX_SHORT_ANSWER),
  email: emailCheck,
  number: (v) => numberIn(v, -Number.MAX_VALUE, Number.MAX_VALUE, false),
  date: dateCheck,
  phone: (v) => text(v, 40) ?? (PHONE.test(v as string) ? null : 'must be a phone number'),
  url: (v) => text(v, 2048) ?? (httpUrl(v as string) ? null : 'must be an http(s) URL'),
};

/** The sub-fields of a group question, each with the check of its type. */
function subFields(q: Question): Array<{ key: string; type: string }> {
  if (q.type === 'contact_info' || q.type === 'address') {
    return ((q.properties.fields as string[] | undefined) ?? []).map((f) => ({ key: f, type: f === 'email' || f === 'phone' ? f : 'short_text' }));
  }
  return ((q.properties.questions as Array<{ id: string; type: string }> | undefined) ?? []).map((s) => ({ key: s.id, type: s.type }));
}

const objectOfFields: Check = (v, q) => {
  if (!isPlainObject(v)) return expected('an object of sub-field values', v);
  const fields = new Map(subFields(q).map((f) => [f.key, f.type]));
  for (const [k, sub] of Object.entries(v)) {
    const type = fields.get(k);
    if (type === undefined) return `has an unknown sub-field ${JSON.stringify(k)}`;
    if (sub === null || sub === '') continue;
    const problem = (SUB_CHECKS[type] ?? SUB_CHECKS.short_text!)(sub);
    if (problem) return `${k}: ${problem}`;
  }
  const required = q.properties.required_fields;
  if (Array.isArray(required)) {
    for (const k of required as string[]) {
      const sub = v[k];
      if (sub === null || sub === undefined || (typeof sub === 'string' && isBlank(sub))) return `${k}: is required`;
    }
  }
  return null;
};

/** Value checks by question type: the table in docs/decisions.md ("Answer values"). A type without a check is not answered by respondents. */
const CHECKS: Record<string, Check> = {
  short_text: (v, q) => text(v, (q.properties.max_length as number | undefined) ?? MAX_TEXT_ANSWER),
  long_text: (v, q) => text(v, (q.properties.max_length as number | undefined) ?? MAX_TEXT_ANSWER),
  email: emailCheck,
  dropdown: (v, q) => (!isString(v) ? expected('a string', v) : choiceLabels(q).includes(v) ? null : 'is not one of the choices'),
  multiple_choice: (v, q) => {
    const labels = choiceLabels(q);
    const other = q.properties.allow_other === true;
    const one = (s: unknown): string | null => {
      if (!isString(s)) return expected('a string', s);
      if (labels.includes(s)) return null;
      if (!other) return `${JSON.stringify(s.slice(0, 100))} is not one of the choices`;
      return isBlank(s) ? 'an "other" answer must not be blank' : s.length > MAX_SHORT_ANSWER ? `must be at most ${MAX_SHORT_ANSWER} characters` : null;
    };
    if (q.properties.allow_multiple === true) {
      if (!Array.isArray(v)) return expected('an array of choices', v);
      if (new Set(v).size !== v.length) return 'repeats a choice';
      for (const s of v) {
        const problem = one(s);
        if (problem) return problem;
      }
      return null;
    }
    return one(v);
  },
  rating: (v, q) => numberIn(v, 1, (q.properties.steps as number | undefined) ?? 5, true),
  opinion_scale: (v, q) =>
    numberIn(v, (q.properties.min as number | undefined) ?? 0, (q.properties.max as number | undefined) ?? 10, true),
  number: (v, q) =>
    numberIn(v, (q.properties.min as number | undefined) ?? -Number.MAX_VALUE, (q.properties.max as number | undefined) ?? Number.MAX_VALUE, false),
  date: dateCheck,
  yes_no: (v) => (typeof v === 'boolean' ? null : expected('a boolean', v)),
  file_upload: (v, _q, ctx) => {
    if (!isPlainObject(v)) return expected('an object {url, name}', v);
    const { url, name, ...rest } = v;
    if (Object.keys(rest).length) return `has an unknown field ${JSON.stringify(Object.keys(rest)[0])} (expected {url, name})`;
    if (!isString(url)) return `url: ${expected('a string', url)}`;
    if (!isString(name)) return `name: ${expected('a string', name)}`;
    if (name.length === 0 || name.length > 255) return 'name: must be 1 to 255 characters';
    if (ctx.isUploadUrl && !ctx.isUploadUrl(url)) return 'url: must be the URL of a file uploaded to this form';
    return null;
  },
  question_group: objectOfFields,
  multi_question_page: objectOfFields,
  contact_info: objectOfFields,
  address: objectOfFields,
  // The slot held on the page (docs/booking.md): checked against the hold when the response completes.
  booking: (v) => {
    if (!isPlainObject(v)) return expected('the held slot {id, start, end, timezone}', v);
    const { id, start, end, timezone, ...rest } = v;
    if (Object.keys(rest).length) return `has an unknown field ${JSON.stringify(Object.keys(rest)[0])} (expected {id, start, end, timezone})`;
    for (const [k, x] of Object.entries({ id, start, end, timezone })) if (!isString(x) || x.length === 0 || x.length > 100) return `${k}: ${expected('a string', x)}`;
    return null;
  },
};

/** True when respondents answer questions of `type` through the responses endpoints. */
export const isAnswerable = (type: string) => type in CHECKS;

/**
 * True when a value counts as no answer (for required checks): null, and the empty form of the
 * question's own value shape ('' for strings, [] for arrays, an object whose sub-fields are all empty for
 * group questions). An empty value of the wrong shape is a wrong value, not "no answer".
 */
export function isEmptyAnswer(v: unknown, q?: Question): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string') return q === undefined || isTextual(q) ? isBlank(v) : false;
  if (Array.isArray(v)) return v.length === 0 && (q === undefined || (q.type === 'multiple_choice' && q.properties.allow_multiple === true));
  if (typeof v === 'object') {
    if (q !== undefined && !GROUPS.has(q.type)) return false;
    return Object.values(v as object).every((s) => s === null || s === undefined || (typeof s === 'string' && isBlank(s)));
  }
  return false;
}

const GROUPS = new Set(['question_group', 'multi_question_page', 'contact_info', 'address']);
const isTextual = (q: Question) =>
  ['short_text', 'long_text', 'email', 'dropdown', 'date'].includes(q.type) ||
  (q.type === 'multiple_choice' && q.properties.allow_multiple !== true);

export interface AnswerProblems {
  unknown: string[];
  invalid: Array<{ index: number; question_id: string; problem: string }>;
  missing: string[];
}

/**
 * Checks answers against the questions of the version being answered. `complete` adds the required
 * check. An empty value of the question's shape (see `isEmptyAnswer`) counts as no answer.
 */
export function checkAnswers(questions: Question[], answers: Answer[], complete: boolean, ctx: AnswerContext = {}): AnswerProblems {
  const byId = new Map(questions.map((q) => [q.id, q]));
  const problems: AnswerProblems = { unknown: [], invalid: [], missing: [] };
  answers.forEach((a, index) => {
    const q = byId.get(a.question_id);
    if (!q) {
      problems.unknown.push(a.question_id);
      return;
    }
    if (isEmptyAnswer(a.value, q)) return;
    const check = CHECKS[q.type];
    const problem = check ? (check(a.value, q, ctx) ?? validationProblem(q.validations, a.value)) : `a ${q.type} question is not answered by respondents`;
    if (problem) problems.invalid.push({ index, question_id: q.id, problem });
  });
  if (complete) {
    const answered = new Set(answers.filter((a) => !isEmptyAnswer(a.value, byId.get(a.question_id))).map((a) => a.question_id));
    problems.missing = questions
      .filter((q) => q.required && isAnswerable(q.type) && !answered.has(q.id) && (!ctx.shown || ctx.shown.has(q.id)))
      .map((q) => q.id);
  }
  return problems;
}

/**
 * The window a respondent's `started_at` must fall in (docs/decisions.md "Responses and uploads"): it feeds
 * `average_completion_time_seconds`, so a made-up start years back would swamp the average.
 */
export const STARTED_AT_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Clock skew tolerated between a respondent's device and the server. */
export const STARTED_AT_MAX_SKEW_MS = 5 * 60 * 1000;

/** Why `startedAt` is out of the window relative to `now`, or null when it is inside. */
export function startedAtProblem(startedAt: Date, now: Date): string | null {
  const t = startedAt.getTime();
  if (Number.isNaN(t)) return 'must be an ISO 8601 date-time';
  if (t > now.getTime() + STARTED_AT_MAX_SKEW_MS) return 'must not be after the submission (5 minutes of clock skew allowed)';
  if (t < now.getTime() - STARTED_AT_MAX_AGE_MS) return 'must be at most 30 days before the submission';
  return null;
}

/** Where an upload's answer URL points: `<publicUrl>/<mount>/public/uploads/<formId>/<32 hex>/<name>`. */
const UPLOAD_PATH = /\/public\/uploads\/([^/]+)\/[0-9a-f]{32}\/[^/]+$/;

/** True when `url` is the URL the upload endpoint gave for a file of form `formId` on this instance. */
export function isUploadUrlOf(publicUrl: string, formId: string, url: string): boolean {
  const base = publicUrl.replace(/\/+$/, '');
  if (!url.startsWith(`${base}/`) || url.length > 2048) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.search || u.hash || (u.protocol !== 'http:' && u.protocol !== 'https:')) return false;
  const m = UPLOAD_PATH.exec(u.pathname);
  return !!m && m[1] === encodeURIComponent(formId);
}
