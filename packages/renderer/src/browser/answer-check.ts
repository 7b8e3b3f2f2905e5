import { isUnanswered } from '../../../core/src/logic/conditions.js';
import { validationProblem } from '../../../core/src/logic/validations.js';
import { subFields } from './questions/group.js';
import type { PublicQuestion } from './types.js';
import type { Translate } from './i18n/index.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9 ()./-]{3,40}$/;

function range(t: Translate, v: number, min: unknown, max: unknown): string | null {
  const both = typeof min === 'number' && typeof max === 'number';
  if (typeof min === 'number' && v < min) return both ? t('error_range', { min, max: max as number }) : t('error_min', { min });
  if (typeof max === 'number' && v > max) return both ? t('error_range', { min: min as number, max }) : t('error_max', { max });
  return null;
}

/**
 * What the respondent must fix before moving on, in words they can act on, or null. The same rules as the
 * server's (docs/decisions.md "Answer values", "Logic and validations"), so a form the page lets through is
 * one the server accepts.
 */
export function answerProblem(q: PublicQuestion, v: unknown, t: Translate): string | null {
  if (v && typeof v === 'object' && 'error' in v) return String((v as { error: unknown }).error);
  if (v && typeof v === 'object' && 'pending' in v) return t('error_upload_pending');
  if (q.type === 'number' && typeof v === 'number' && Number.isNaN(v)) return t('error_number');
  if (isUnanswered(v)) {
    if (!q.required) return null;
    const first = subFields(q, t).find((f) => f.required);
    return first ? t('error_field_required', { field: first.label }) : t('error_required');
  }
  if (q.type === 'email' && !EMAIL.test(String(v).trim())) return t('error_email');
  if (q.type === 'number') return range(t, v as number, q.properties.min, q.properties.max) ?? checked(q, v, t);
  if (q.type === 'dropdown' && !(q.properties.choices ?? []).some((c: { label: string }) => c.label === v)) return t('error_choice');
  if (q.type === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(String(v))) return t('error_date');
  if (subFields(q, t).length && v && typeof v === 'object') {
    for (const f of subFields(q, t)) {
      const s = (v as Record<string, unknown>)[f.key];
      if (isUnanswered(s)) {
        if (f.required) return t('error_field_required', { field: f.label });
        continue;
      }
      if (f.type === 'email' && !EMAIL.test(String(s))) return t('error_field_email', { field: f.label });
      if ((f.type === 'phone' || f.type === 'tel') && !PHONE.test(String(s))) return t('error_field_phone', { field: f.label });
    }
  }
  return checked(q, v, t);
}

/**
 * The shared rules' verdict (docs/decisions.md "Logic and validations") in the respondent's words: the rules
 * decide, this names the rule broken; an owner's `pattern_message` is shown as written.
 */
function checked(q: PublicQuestion, v: unknown, t: Translate): string | null {
  const value = typeof v === 'string' ? v.trim() : v;
  if (!validationProblem(q.validations, value)) return null;
  const r = (q.validations ?? {}) as Record<string, unknown>;
  if (typeof value === 'string') {
    const n = [...value].length;
    if (typeof r.min_length === 'number' && n < r.min_length) return t('error_min_length', { n: r.min_length });
    if (typeof r.max_length === 'number' && n > r.max_length) return t('error_max_length', { n: r.max_length });
    return typeof r.pattern_message === 'string' && r.pattern_message ? r.pattern_message : t('error_pattern');
  }
  if (typeof value === 'number') return range(t, value, r.min_value, r.max_value) ?? t('error_number');
  if (Array.isArray(value)) {
    if (typeof r.min_selections === 'number' && value.length < r.min_selections) return t('error_min_selections', { n: r.min_selections });
    return t('error_max_selections', { n: r.max_selections as number });
  }
  return t('error_pattern');
}
