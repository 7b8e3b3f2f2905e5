import type { FormInput } from '../../data/forms';
import type { FormTemplate } from './template-kit';
import { BUSINESS_TEMPLATES } from './templates-business';
import { FEEDBACK_TEMPLATES } from './templates-feedback';

/** "Blank form" of the "New form" gallery: created at once, no preview. */
export const BLANK_FORM: FormInput & { title: string } = { title: 'Untitled form', questions: [] };

/**
 * The template gallery of "New form" (docs/workspace.md "Templates"), in the order shown: the most asked-for
 * first. Each is previewed before it is used (template-preview.ts).
 */
const ORDER = ['contact', 'nps', 'job', 'event', 'order', 'contract', 'quiz', 'personality', 'survey', 'booking', 'lead', 'csat', 'bug', 'rsvp', 'newsletter', 'employee', 'course', 'volunteer'];
const ALL = [...BUSINESS_TEMPLATES, ...FEEDBACK_TEMPLATES];
export const FORM_TEMPLATES: FormTemplate[] = [...ORDER.map((id) => ALL.find((t) => t.id === id)!), ...ALL.filter((t) => !ORDER.includes(t.id))];
