import { z } from 'zod';
import { int, named } from '../api-schemas';
import type { Question, ResponseRecord } from '../domain/types';
import type { QuestionValueCount } from '../ports/storage';
import { GROUP_TYPES, latestFiles, npsSplit, numberBins, pct, subQuestionsOf } from './question-summary-extras';

/*
 * Per-question summaries (docs/responses-and-webhooks.md, "Question summaries"): computed from the
 * storage's answer distributions (`ResponseRepository.questionValues`, counters kept in step with every
 * write) and, for text questions, from the newest responses. Nothing here reads every response.
 */

/** Text answers shown per text question, taken from the newest LATEST_SCAN responses. */
export const LATEST_TEXT = 5;
export const LATEST_SCAN = 100;

const TEXT_TYPES = new Set(['short_text', 'long_text', 'email', 'phone', 'url']);
const CHOICE_TYPES = new Set(['multiple_choice', 'dropdown', 'yes_no']);
const SCALE_TYPES = new Set(['rating', 'opinion_scale']);

const share = z.number().describe('Percent of the answered responses, two decimals');
const bucket = z.object({
  value: z.string(),
  count: int,
  share,
  other: z.literal(true).optional().describe('set on an "other" answer (a value that is not one of the choices)'),
});
const part = z.object({ count: int, share });

const summaryFields = z.object({
  question_id: z.string(),
  type: z.string(),
  title: z.string(),
  kind: z.enum(['choices', 'scale', 'number', 'date', 'text', 'none']).describe('Which of the fields below are set'),
  answered: int.describe('Responses with an answer counted here (choices: responses, not choices picked)'),
  choices: z.array(bucket).optional().describe('choices, yes/no, dropdown: every choice (also those never picked, then 0), then "other" answers'),
  histogram: z.array(z.object({ value: z.number(), count: int, share })).optional().describe('rating, opinion scale: every step from min to max'),
  mean: z.number().nullable().optional(),
  nps: z.number().nullable().optional().describe('opinion scale 0 to 10: % promoters (9-10) minus % detractors (0-6)'),
  min: z.number().nullable().optional().describe('number: smallest value, to 3 significant digits'),
  median: z.number().nullable().optional().describe('number: the median, to 3 significant digits'),
  max: z.number().nullable().optional(),
  by_day: z.array(z.object({ date: z.string(), count: int })).optional().describe('date: answers per day answered, ascending'),
  latest: z
    .array(z.object({ response_id: z.string(), submitted_at: z.string(), value: z.string() }))
    .optional()
    .describe('text: the newest answers (search them with the responses list)'),
  nps_split: z
    .object({ promoters: part, passives: part, detractors: part })
    .optional()
    .describe('opinion scale 0 to 10: promoters (9-10), passives (7-8), detractors (0-6), share of the answers'),
  nps_by_week: z
    .array(z.object({ week: z.string().describe('the Monday (UTC) starting the week'), answered: int, nps: z.number().nullable() }))
    .optional()
    .describe('opinion scale 0 to 10: the NPS of each of the last 12 weeks up to `until` (or today), oldest first'),
  bins: z
    .array(z.object({ from: z.number(), to: z.number(), count: int, share }))
    .optional()
    .describe('number: up to 10 equal-width bins from min to max, both ends included (whole numbers: whole bins, e.g. 1-9, 10-18); number also sets `mean`'),
  files: z
    .array(z.object({ response_id: z.string(), submitted_at: z.string(), name: z.string(), url: z.string() }))
    .optional()
    .describe('file upload (kind none): the newest files, up to 8, from the newest 100 responses'),
});

export const questionSummaryOut = summaryFields.extend({
  sub_questions: z
    .array(summaryFields)
    .optional()
    .describe('question group, multi-question page (kind none): a summary per sub-question, from the newest 100 responses'),
  sub_questions_sample: int.optional().describe('groups: how many of the newest responses answered the group (what sub_questions counts)'),
});

export const questionSummariesOut = named(
  'QuestionSummaries',
  z.object({ form_id: z.string(), total_responses: int, questions: z.array(questionSummaryOut) }),
);

export type QuestionSummary = z.infer<typeof questionSummaryOut>;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** The summaries of `questions` (in order) from the value counts and the newest responses. */
export function summarizeQuestions(questions: Question[], counts: QuestionValueCount[], newest: ResponseRecord[], answered: Map<string, number>): QuestionSummary[] {
  const byQuestion = new Map<string, Map<string, number>>();
  for (const c of counts) {
    const m = byQuestion.get(c.question_id) ?? new Map<string, number>();
    m.set(c.value, (m.get(c.value) ?? 0) + c.count);
    byQuestion.set(c.question_id, m);
  }
  return questions.map((q) => {
    const values = byQuestion.get(q.id) ?? new Map<string, number>();
    const base = { question_id: q.id, type: q.type, title: q.title, answered: answered.get(q.id) ?? 0 };
    if (CHOICE_TYPES.has(q.type)) return { ...base, kind: 'choices' as const, choices: choiceBuckets(q, values, base.answered) };
    if (SCALE_TYPES.has(q.type)) return { ...base, kind: 'scale' as const, ...scale(q, values) };
    if (q.type === 'number') return { ...base, kind: 'number' as const, ...numbers(values) };
    if (q.type === 'date') {
      const by_day = [...values].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([date, count]) => ({ date, count }));
      return { ...base, kind: 'date' as const, by_day };
    }
    if (TEXT_TYPES.has(q.type)) return { ...base, kind: 'text' as const, latest: latestText(q.id, newest) };
    if (q.type === 'file_upload') return { ...base, kind: 'none' as const, files: latestFiles(q.id, newest) };
    if (GROUP_TYPES.has(q.type)) {
      const sub = subQuestionsOf(q, newest);
      return { ...base, kind: 'none' as const, sub_questions: summarizeQuestions(sub.questions, sub.counts, sub.responses, sub.answered), sub_questions_sample: sub.sample };
    }
    return { ...base, kind: 'none' as const };
  });
}

function choiceBuckets(q: Question, values: Map<string, number>, answered: number) {
  const labels =
    q.type === 'yes_no'
      ? ['true', 'false']
      : Array.isArray(q.properties.choices)
        ? (q.properties.choices as Array<{ label?: unknown }>).map((c) => String(c.label ?? '').slice(0, 200))
        : [];
  const out: Array<{ value: string; count: number; other?: true }> = labels.map((value) => ({ value, count: values.get(value) ?? 0 }));
  const known = new Set(labels);
  // A dropdown inside a group has no choices: its answers are its values, not "other" ones.
  for (const [value, count] of values) if (!known.has(value)) out.push(labels.length ? { value, count, other: true } : { value, count });
  return out.map((b) => ({ ...b, share: pct(b.count, answered) }));
}

function scale(q: Question, values: Map<string, number>) {
  const lo = q.type === 'rating' ? 1 : typeof q.properties.min === 'number' ? q.properties.min : 0;
  const hi = q.type === 'rating' ? (typeof q.properties.steps === 'number' ? q.properties.steps : 5) : typeof q.properties.max === 'number' ? q.properties.max : 10;
  let n = 0;
  let sum = 0;
  for (const [v, c] of values) {
    n += c;
    sum += Number(v) * c;
  }
  const histogram: Array<{ value: number; count: number }> = [];
  for (let v = lo; v <= hi; v++) histogram.push({ value: v, count: values.get(String(v)) ?? 0 });
  const result: { histogram: Array<{ value: number; count: number; share: number }>; mean: number | null; nps?: number | null; nps_split?: ReturnType<typeof npsSplit> } = {
    histogram: histogram.map((b) => ({ ...b, share: pct(b.count, n) })),
    mean: n > 0 ? round2(sum / n) : null,
  };
  if (q.type === 'opinion_scale' && lo === 0 && hi === 10) {
    const count = (from: number, to: number) => histogram.filter((b) => b.value >= from && b.value <= to).reduce((s, b) => s + b.count, 0);
    result.nps = n > 0 ? Math.round(((count(9, 10) - count(0, 6)) / n) * 100) : null;
    result.nps_split = npsSplit(histogram);
  }
  return result;
}

/** Min, median and max from the counts per value (rounded to 3 significant digits by the storage). */
function numbers(values: Map<string, number>) {
  const sorted = [...values].map(([v, c]) => [Number(v), c] as const).filter(([v]) => Number.isFinite(v)).sort((a, b) => a[0] - b[0]);
  const n = sorted.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return { min: null, median: null, max: null, mean: null, bins: [] };
  const at = (k: number) => {
    let seen = 0;
    for (const [v, c] of sorted) {
      seen += c;
      if (seen > k) return v;
    }
    return sorted[sorted.length - 1]![0];
  };
  const median = n % 2 === 1 ? at((n - 1) / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
  return { min: sorted[0]![0], median: Number(median.toPrecision(3)), max: sorted[sorted.length - 1]![0], ...numberBins(sorted) };
}

function latestText(questionId: string, newest: ResponseRecord[]) {
  const out: Array<{ response_id: string; submitted_at: string; value: string }> = [];
  for (const r of newest) {
    const a = r.answers.find((x) => x.question_id === questionId);
    if (a && typeof a.value === 'string' && a.value.trim() !== '') out.push({ response_id: r.id, submitted_at: r.submitted_at, value: a.value.slice(0, 1000) });
    if (out.length === LATEST_TEXT) break;
  }
  return out;
}
