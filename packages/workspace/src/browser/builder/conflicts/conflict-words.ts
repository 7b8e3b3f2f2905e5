import type { Form, Question } from '../../../data/forms';
import type { MergeConflict, MergePlace } from '../../../../../core/src/forms/form-merge.js';
import { kindOf } from '../kinds/registry';

/*
 * Plain words for a two-tab merge (docs/workspace.md, "When the form changed elsewhere"): where each change
 * is ("Question 3 · Title") and what each side holds ("“Age”", "Required", "2 choices: Red, Blue").
 */

const FORM_FIELDS: Record<string, string> = {
  title: 'Form title',
  description: 'Form description',
  welcome_title: 'Welcome screen · Title',
  welcome_description: 'Welcome screen · Text',
  welcome_button_text: 'Welcome screen · Button',
  thank_you_title: 'Thank-you screen · Title',
  thank_you_description: 'Thank-you screen · Text',
  start_logic_jumps: 'Start jumps',
  hidden_fields: 'Hidden fields',
  close_at: 'Close on',
  response_limit: 'Response limit',
  redirect_url: 'Address after submitting',
  webhook_url: 'Webhook address',
  mode: 'Quiz mode',
  quiz_settings: 'Quiz endings and scores',
  variables: 'Variables',
  custom_css: 'Custom CSS',
  language: 'Language',
  strings: 'Texts of the respondent page',
};

const QUESTION_FIELDS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  required: 'Required',
  type: 'Kind',
  logic_jumps: 'Logic',
  logic_actions: 'Logic actions',
  validations: 'Validation',
  'properties.choices': 'Choices',
  'properties.questions': 'Sub-questions',
  'properties.allow_multiple': 'Several answers',
  'properties.allow_other': '“Other” choice',
  'properties.placeholder': 'Placeholder',
};

/** `snake_case` as words: "button_text_color" -> "Button text color". */
const words = (key: string) => {
  const s = key.replace(/^properties\./, '').replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
};

export const fieldName = (field: string, isQuestion: boolean) => (isQuestion ? QUESTION_FIELDS[field] : FORM_FIELDS[field]) ?? words(field);

/** "Question 3" by its place in `form` (this tab's draft, else the server's), with its title when short. */
export function questionName(id: string, ...forms: Form[]): string {
  for (const f of forms) {
    const i = f.questions.findIndex((q) => q.id === id);
    if (i >= 0) return `Question ${i + 1}`;
  }
  return 'A question';
}

/** Where a change is, as a heading: "Question 3 · Title", "Form title", "Order of the questions". */
export function placeName(place: MergePlace, mine: Form, theirs: Form): string {
  if (place.kind === 'form') return fieldName(place.field, false);
  if (place.kind === 'order') return 'Order of the questions';
  const q = questionName(place.id, mine, theirs);
  if (place.kind === 'deleted') return q;
  if (place.field === 'added') return `${q} · added`;
  if (place.field === 'deleted') return `${q} · deleted`;
  return `${q} · ${fieldName(place.field, true)}`;
}

const quote = (s: string) => `“${s.length > 120 ? `${s.slice(0, 117)}…` : s}”`;

/** A value of one side in a few words. */
export function describe(value: unknown, field = ''): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (field === 'required' || typeof value === 'boolean') return field === 'required' ? (value ? 'Required' : 'Optional') : value ? 'On' : 'Off';
  if (field === 'type' && typeof value === 'string') return kindOf(value as Question['type']).label;
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) {
    if (!value.length) return 'none';
    const labels = value.map((v) => (v && typeof v === 'object' ? ((v as { label?: unknown; title?: unknown }).label ?? (v as { title?: unknown }).title) : v)).filter((v) => typeof v === 'string') as string[];
    if (labels.length === value.length) return `${value.length}: ${labels.join(', ')}`.slice(0, 160);
    return value.length === 1 ? '1 rule' : `${value.length} rules`;
  }
  return 'changed';
}

/** What each side holds for a conflict, in a few words. */
export function sides(c: MergeConflict, mine: Form, theirs: Form): { mine: string; theirs: string } {
  const p = c.place;
  if (p.kind === 'order') {
    const titles = (ids: unknown, f: Form) => (ids as string[]).map((id) => f.questions.find((q) => q.id === id)?.title || 'Untitled').join(' → ');
    return { mine: titles(c.mine, mine), theirs: titles(c.theirs, theirs) };
  }
  if (p.kind === 'deleted') {
    const what = p.changed.map((f) => fieldName(f, true).toLowerCase()).join(', ');
    const title = ((p.deletedBy === 'mine' ? c.theirs : c.mine) as Question).title;
    return p.deletedBy === 'mine'
      ? { mine: 'deleted', theirs: `kept ${quote(title || 'Untitled')} and changed its ${what}` }
      : { mine: `kept ${quote(title || 'Untitled')} and changed its ${what}`, theirs: 'deleted' };
  }
  const field = p.kind === 'question' ? p.field : p.field;
  return { mine: describe(c.mine, field), theirs: describe(c.theirs, field) };
}
