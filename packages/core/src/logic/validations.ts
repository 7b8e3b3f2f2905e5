/**
 * A question's `validations` (docs/decisions.md "Logic and validations"): limits on an answer beyond its
 * type, checked by the respondent's page as they type and by the server on submission, with the same
 * messages. Pure and dependency-free, compiled for the browser too.
 */
export interface Validations {
  min_length?: number;
  max_length?: number;
  /** A JavaScript regular expression (no flags) the whole answer must match. */
  pattern?: string;
  /** Shown instead of the generic message when `pattern` does not match. */
  pattern_message?: string;
  min_value?: number;
  max_value?: number;
  min_selections?: number;
  max_selections?: number;
}

/** Which validation keys each question type accepts. */
export const VALIDATION_KEYS: Record<string, readonly (keyof Validations)[]> = {
  short_text: ['min_length', 'max_length', 'pattern', 'pattern_message'],
  long_text: ['min_length', 'max_length', 'pattern', 'pattern_message'],
  email: ['max_length', 'pattern', 'pattern_message'],
  number: ['min_value', 'max_value'],
  rating: ['min_value', 'max_value'],
  opinion_scale: ['min_value', 'max_value'],
  multiple_choice: ['min_selections', 'max_selections'],
};

/** Longest `pattern` accepted: long patterns are where catastrophic backtracking hides. */
export const MAX_PATTERN_LENGTH = 200;

/** The pattern compiled to match the whole answer, or null when it is not a valid expression. */
export function compilePattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return null;
  }
}

/**
 * Why `value` breaks `validations`, or null when it keeps them. An unanswered value keeps them all (whether
 * an answer is needed is the `required` flag's business).
 */
export function validationProblem(validations: unknown, value: unknown): string | null {
  if (!validations || typeof validations !== 'object') return null;
  const v = validations as Validations;
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const n = [...value].length;
    if (v.min_length !== undefined && n < v.min_length) return `must be at least ${v.min_length} characters`;
    if (v.max_length !== undefined && n > v.max_length) return `must be at most ${v.max_length} characters`;
    if (typeof v.pattern === 'string') {
      const re = compilePattern(v.pattern);
      if (re && !re.test(value)) return v.pattern_message || 'is not in the expected format';
    }
  }
  if (typeof value === 'number') {
    if (v.min_value !== undefined && value < v.min_value) return `must be at least ${v.min_value}`;
    if (v.max_value !== undefined && value > v.max_value) return `must be at most ${v.max_value}`;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return null;
    if (v.min_selections !== undefined && value.length < v.min_selections) return `choose at least ${v.min_selections}`;
    if (v.max_selections !== undefined && value.length > v.max_selections) return `choose at most ${v.max_selections}`;
  }
  return null;
}
