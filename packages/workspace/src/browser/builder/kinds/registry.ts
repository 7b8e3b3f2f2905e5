import type { QuestionType } from '../../../data/forms';
export { VALIDATION_KEYS } from '../../../../../core/src/logic/validations.js';

/*
 * Every question type the API accepts (packages/core/src/forms/question-types.ts), with its name in the
 * builder, the properties a new one starts with, and the editor element for its own properties. Adding a
 * type touches this table, one editor element, the renderer's control and the core's schema.
 */

export interface KindInfo {
  type: QuestionType;
  label: string;
  group: 'Text' | 'Choice' | 'Scale' | 'Contact' | 'Structure' | 'Advanced';
  /** The editor element of its own properties; none when it has none. */
  editor: string | null;
  /** Properties of a new question of this type (what the API needs for it to be valid). */
  defaults: Record<string, unknown>;
  /** Whether respondents answer it (quiz scoring and logic apply). */
  answerable: boolean;
}

const sub = (title: string, type = 'short_text') => ({ type, title, required: false });

export const KINDS: KindInfo[] = [
  { type: 'short_text', label: 'Short text', group: 'Text', editor: 'fl-text-editor', defaults: {}, answerable: true },
  { type: 'long_text', label: 'Long text', group: 'Text', editor: 'fl-text-editor', defaults: {}, answerable: true },
  { type: 'email', label: 'Email', group: 'Text', editor: 'fl-text-editor', defaults: {}, answerable: true },
  { type: 'number', label: 'Number', group: 'Text', editor: 'fl-number-editor', defaults: {}, answerable: true },
  { type: 'date', label: 'Date', group: 'Text', editor: 'fl-date-editor', defaults: { format: 'YYYY-MM-DD' }, answerable: true },
  { type: 'yes_no', label: 'Yes / No', group: 'Choice', editor: null, defaults: {}, answerable: true },
  { type: 'multiple_choice', label: 'Multiple choice', group: 'Choice', editor: 'fl-choice-editor', defaults: { choices: [{ label: 'Option 1' }, { label: 'Option 2' }], allow_multiple: false }, answerable: true },
  { type: 'dropdown', label: 'Dropdown', group: 'Choice', editor: 'fl-choice-editor', defaults: { choices: [{ label: 'Option 1' }, { label: 'Option 2' }] }, answerable: true },
  { type: 'rating', label: 'Rating', group: 'Scale', editor: 'fl-rating-editor', defaults: { steps: 5, shape: 'star' }, answerable: true },
  { type: 'opinion_scale', label: 'Opinion scale', group: 'Scale', editor: 'fl-scale-editor', defaults: { min: 0, max: 10 }, answerable: true },
  { type: 'file_upload', label: 'File upload', group: 'Contact', editor: 'fl-file-editor', defaults: { max_size_mb: 10 }, answerable: true },
  { type: 'contact_info', label: 'Contact info', group: 'Contact', editor: 'fl-fields-editor', defaults: { fields: ['first_name', 'last_name', 'email', 'phone', 'company'] }, answerable: true },
  { type: 'address', label: 'Address', group: 'Contact', editor: 'fl-fields-editor', defaults: { fields: ['address_line1', 'address_line2', 'city', 'state', 'zip', 'country'] }, answerable: true },
  { type: 'question_group', label: 'Question group', group: 'Structure', editor: 'fl-group-editor', defaults: { questions: [sub('First field'), sub('Second field')] }, answerable: true },
  { type: 'multi_question_page', label: 'Several questions on a page', group: 'Structure', editor: 'fl-group-editor', defaults: { questions: [sub('First question'), sub('Second question')] }, answerable: true },
  { type: 'contract', label: 'Contract (e-signature)', group: 'Advanced', editor: 'fl-contract-editor', defaults: {}, answerable: true },
  { type: 'booking', label: 'Booking', group: 'Advanced', editor: 'fl-booking-editor', defaults: { durations: [30] }, answerable: true },
  { type: 'payment', label: 'Payment', group: 'Advanced', editor: 'fl-payment-editor', defaults: { provider: 'standard' }, answerable: true },
  { type: 'data', label: 'Data source', group: 'Advanced', editor: 'fl-data-node-editor', defaults: {}, answerable: false },
  { type: 'email_step', label: 'Send an email', group: 'Advanced', editor: 'fl-email-node-editor', defaults: {}, answerable: false },
  { type: 'fuse', label: 'Fuse with another form', group: 'Advanced', editor: 'fl-fuse-editor', defaults: {}, answerable: false },
  { type: 'composite', label: 'Composite of forms', group: 'Advanced', editor: 'fl-composite-editor', defaults: {}, answerable: false },
];

export const kindOf = (type: string): KindInfo => KINDS.find((k) => k.type === type) ?? KINDS[0]!;

/** Types whose answers can be scored with a correct answer and points (knowledge quizzes). */
export const QUIZ_TYPES = ['short_text', 'long_text', 'number', 'date', 'yes_no', 'multiple_choice', 'dropdown', 'rating', 'opinion_scale'];
