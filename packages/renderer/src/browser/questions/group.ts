import { h, uid } from '../dom.js';
import type { Control, ControlContext, PublicQuestion } from '../types.js';
import type { StringKey, Translate } from '../i18n/index.js';

/** Labels of contact_info and address sub-fields, and their input types and autofill names. */
const NAMED_FIELDS: Record<string, [StringKey, string, string]> = {
  first_name: ['first_name', 'text', 'given-name'],
  last_name: ['last_name', 'text', 'family-name'],
  email: ['email', 'email', 'email'],
  phone: ['phone', 'tel', 'tel'],
  company: ['company', 'text', 'organization'],
  address_line1: ['address_line1', 'text', 'address-line1'],
  address_line2: ['address_line2', 'text', 'address-line2'],
  city: ['city', 'text', 'address-level2'],
  state: ['state', 'text', 'address-level1'],
  zip: ['zip', 'text', 'postal-code'],
  country: ['country', 'text', 'country-name'],
};

const SUB_TYPES: Record<string, string> = { email: 'email', number: 'number', date: 'date', phone: 'tel', url: 'url' };

export interface SubField {
  key: string;
  label: string;
  type: string;
  required: boolean;
  autocomplete?: string;
}

/** Sub-fields a required contact_info or address question asks for when it names none (docs/respondents.md). */
const DEFAULT_REQUIRED: Record<string, string[]> = {
  contact_info: ['first_name', 'last_name', 'email'],
  address: ['address_line1', 'city', 'country'],
};

/**
 * The sub-fields that must be filled: `properties.required_fields` when given (the server holds the same
 * list), else, for a required question, its usual ones; an optional question requires none.
 */
function requiredFields(q: PublicQuestion): Set<string> {
  const given = q.properties.required_fields;
  if (Array.isArray(given)) return new Set(given as string[]);
  return new Set(q.required ? (DEFAULT_REQUIRED[q.type] ?? []) : []);
}

/** The sub-fields of a group question: sub-questions, or the configured contact/address fields. */
export function subFields(q: PublicQuestion, t: Translate): SubField[] {
  if (q.type === 'contact_info' || q.type === 'address') {
    const required = requiredFields(q);
    return ((q.properties.fields ?? []) as string[]).map((f) => {
      const named = NAMED_FIELDS[f];
      return { key: f, label: named ? t(named[0]) : f, type: named?.[1] ?? 'text', required: required.has(f), autocomplete: named?.[2] ?? 'on' };
    });
  }
  return ((q.properties.questions ?? []) as Array<{ id: string; type: string; title: string; required?: boolean }>).map((s) => ({
    key: s.id,
    label: s.title,
    type: s.type,
    required: s.required === true,
  }));
}

/** question_group, multi_question_page, contact_info, address: one labelled field per sub-field. */
export function groupControl(q: PublicQuestion, ctx: ControlContext): Control {
  const value: Record<string, unknown> = { ...((ctx.value as Record<string, unknown> | null) ?? {}) };
  const inputs: Array<HTMLInputElement | HTMLTextAreaElement> = [];
  const rows = subFields(q, ctx.t).map((f) => {
    const id = uid('sub');
    const long = f.type === 'long_text';
    const type = SUB_TYPES[f.type] ?? 'text';
    const input = long
      ? h('textarea', { id, rows: 3, class: 'fl-input' })
      : h('input', { id, type, class: 'fl-input', autocomplete: f.autocomplete ?? 'off', step: type === 'number' ? 'any' : undefined });
    if (f.required) input.setAttribute('aria-required', 'true');
    input.setAttribute('aria-describedby', ctx.describedBy);
    input.value = value[f.key] === null || value[f.key] === undefined ? '' : String(value[f.key]);
    input.addEventListener('input', () => {
      value[f.key] = input.value === '' ? null : type === 'number' ? Number(input.value) : input.value;
      ctx.set({ ...value });
    });
    input.addEventListener('keydown', (e) => {
      const k = e as KeyboardEvent;
      if (k.key === 'Enter' && !k.shiftKey && !k.isComposing) {
        e.preventDefault();
        const i = inputs.indexOf(input);
        if (i < inputs.length - 1) inputs[i + 1]!.focus();
        else ctx.next();
      }
    });
    inputs.push(input);
    return h('div', { class: 'fl-sub' }, h('label', { for: id }, f.label, f.required ? h('span', { 'aria-hidden': 'true' }, ' *') : null), input);
  });
  const el = h('div', { class: 'fl-group', role: 'group', 'aria-labelledby': ctx.labelledBy }, rows);
  return { el, focus: () => inputs[0]?.focus() };
}
