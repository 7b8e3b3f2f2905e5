import type { FormInput } from '../../data/forms';
import { THEME_PRESETS, presetPatch } from '../theme/presets';

/*
 * What a form template is (docs/workspace.md "Templates"): a whole `POST /forms` body (questions with logic and
 * recall, welcome and thank-you texts, a theme from a preset), a gallery card, and nothing else. Questions
 * name each other by the ids the client gives them (`t_<name>`): the server replaces them, and the jumps and
 * recalls that name them follow (docs/decisions.md "Logic and validations", "Recall").
 */

export type TemplateCategory = 'Feedback' | 'Registration' | 'Business' | 'Work' | 'Education';

export interface FormTemplate {
  id: string;
  name: string;
  category: TemplateCategory;
  summary: string;
  /** The preset its theme comes from (theme/presets.ts). */
  preset: string;
  form: Omit<FormInput, 'questions'> & { title: string; questions: TemplateQuestion[] };
}

export interface TemplateQuestion {
  id: string;
  type: string;
  title: string;
  description?: string;
  required?: boolean;
  properties?: Record<string, unknown>;
  validations?: Record<string, unknown>;
  logic_jumps?: Array<Record<string, unknown>>;
}

/** A question; `t_` is prefixed to its id. */
export const q = (id: string, type: string, title: string, extra: Omit<Partial<TemplateQuestion>, 'id' | 'type' | 'title'> = {}): TemplateQuestion => ({
  id: `t_${id}`,
  type,
  title,
  required: false,
  properties: {},
  ...extra,
});

export const choices = (...labels: string[]) => labels.map((label) => ({ label }));

/** A jump to question `id` (or `end`) when every condition holds; none: always. */
export const jump = (to: string, ...conditions: Array<Record<string, unknown>>) => ({
  ...(conditions.length ? { conditions } : {}),
  to: to === 'end' ? 'end' : `t_${to}`,
});

/** An earlier answer in a text, with a fallback. */
export const recall = (id: string, fallback = '') => `{answer.t_${id}${fallback ? `|${fallback}` : ''}}`;

/** The body to send for `t`: its form with the theme of its preset. */
export function templateBody(t: FormTemplate): FormInput & { title: string } {
  const preset = THEME_PRESETS.find((p) => p.id === t.preset);
  return { ...(preset ? presetPatch(preset) : {}), ...t.form } as unknown as FormInput & { title: string };
}
