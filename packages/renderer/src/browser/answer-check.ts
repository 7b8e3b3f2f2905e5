import { isUnanswered } from '../../../core/src/logic/conditions.js';
import { validationProblem } from '../../../core/src/logic/validations.js';
import { subFields } from './questions/group.js';
import type { PublicQuestion } from './types.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()./-]{3,40}$/;

function range(v: number, min: unknown, max: unknown): string | null {
  if (typeof min === 'number' && v < min) return typeof max === 'number' ? `Enter a number from ${min} to ${max}` : `Enter a number of at least ${min}`;
  if (typeof max === 'number' && v > max) return typeof min === 'number' ? `Enter a number from ${min} to ${max}` : `Enter a number of at most ${max}`;
  return null;
}

/**
 * What the respondent must fix before moving on, in words they can act on, or null. The same rules as the
 * server's (docs/decisions.md "Answer values", "Logic and validations"), so a form the page lets through is
 * one the server accepts.
 */
export function answerProblem(q: PublicQuestion, v: unknown): string | null {
  if (v && typeof v === 'object' && 'error' in v) return String((v as { error: unknown }).error);
  if (v && typeof v === 'object' && 'pending' in v) return 'Wait for the upload to finish';
  if (q.type === 'number' && typeof v === 'number' && Number.isNaN(v)) return 'Enter a number';
  if (isUnanswered(v)) {
    if (!q.required) return null;
    const first = subFields(q).find((f) => f.required);
    return first ? `${first.label}: this field is required` : 'This question is required';
  }
  if (q.type === 'email' && !EMAIL.test(String(v).trim())) return 'Enter a valid email address, like name@example.com';
  if (q.type === 'number') return range(v as number, q.properties.min, q.properties.max) ?? checked(q, v);
  if (q.type === 'dropdown' && !(q.properties.choices ?? []).some((c: { label: string }) => c.label === v)) return 'Pick one of the choices';
  if (q.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(String(v))) return 'Enter a date';
  if (subFields(q).length && v && typeof v === 'object') {
    for (const f of subFields(q)) {
      const s = (v as Record<string, unknown>)[f.key];
      if (isUnanswered(s)) {
        if (f.required) return `${f.label}: this field is required`;
        continue;
      }
      if (f.type === 'email' && !EMAIL.test(String(s))) return `${f.label}: enter a valid email address`;
      if ((f.type === 'phone' || f.type === 'tel') && !PHONE.test(String(s))) return `${f.label}: enter a phone number`;
    }
  }
  return checked(q, v);
}

/**
 * The shared rules speak of "the answer" in the predicate ("must be at least 2 characters"), or give a whole
 * sentence (an owner's `pattern_message`, "choose at most 3"): both become a sentence of their own.
 */
export function sentence(problem: string): string {
  if (/^(must|is|are|should)\b/.test(problem)) return `This answer ${problem}`;
  return problem.charAt(0).toUpperCase() + problem.slice(1);
}

function checked(q: PublicQuestion, v: unknown): string | null {
  const p = validationProblem(q.validations, typeof v === 'string' ? v.trim() : v);
  return p ? sentence(p) : null;
}
