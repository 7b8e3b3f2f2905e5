import type { Answers, PublicQuestion } from './types.js';

/**
 * Answers and hidden fields from the page's query string (docs/respondents.md "Prefill and hidden fields"):
 * `?<question id>=value` prefills a question, `?<hidden field>=value` fills a hidden field the form declares.
 * Values that do not fit the question are dropped rather than shown as errors the respondent did not make.
 */
export function prefill(questions: PublicQuestion[], hiddenFields: unknown, search: string): { answers: Answers; hidden: Record<string, string> } {
  const params = new URLSearchParams(search);
  const answers: Answers = {};
  const hidden: Record<string, string> = {};
  const declared = Array.isArray(hiddenFields) ? (hiddenFields as string[]) : [];
  for (const name of declared) {
    const v = params.get(name);
    if (v !== null) hidden[name] = v.slice(0, 1000);
  }
  for (const q of questions) {
    const raw = params.get(q.id);
    if (raw === null) continue;
    const v = convert(q, raw);
    if (v !== undefined) answers[q.id] = v;
  }
  return { answers, hidden };
}

function convert(q: PublicQuestion, raw: string): unknown {
  const labels = ((q.properties.choices ?? []) as Array<{ label: string }>).map((c) => c.label);
  switch (q.type) {
    case 'short_text':
    case 'long_text':
    case 'email':
      return raw;
    case 'number':
    case 'rating':
    case 'opinion_scale':
      return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : undefined;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(raw) ? raw : undefined;
    case 'yes_no':
      return /^(true|yes|1)$/i.test(raw) ? true : /^(false|no|0)$/i.test(raw) ? false : undefined;
    case 'dropdown':
      return labels.includes(raw) ? raw : undefined;
    case 'multiple_choice': {
      if (q.properties.allow_multiple !== true) return labels.includes(raw) ? raw : undefined;
      const picked = raw.split(',').map((s) => s.trim()).filter((s) => labels.includes(s));
      return picked.length ? [...new Set(picked)] : undefined;
    }
    default:
      return undefined;
  }
}
