import type { Question, ResponseRecord } from '../domain/types';

/*
 * The parts of the question summaries added for the workspace's charts (docs/responses-and-webhooks.md,
 * "Question summaries"): the NPS split and its weekly trend, number bins, the newest files, and the
 * sub-questions of groups. All of them read the same counters or the same newest responses as the rest.
 */

export const pct = (n: number, of: number) => (of > 0 ? Math.round((n / of) * 10000) / 100 : 0);

/** Files shown per file question, from the newest responses. */
export const LATEST_FILES = 8;
/** Weeks of NPS trend (ending with the week of `until`, or this week). */
export const NPS_WEEKS = 12;

/** An opinion scale from 0 to 10 (the defaults): the questions with an NPS. */
export const isNpsQuestion = (q: Question) =>
  q.type === 'opinion_scale' && (typeof q.properties.min === 'number' ? q.properties.min : 0) === 0 && (typeof q.properties.max === 'number' ? q.properties.max : 10) === 10;

/** Promoters (9-10), passives (7-8) and detractors (0-6), from a 0-10 histogram. */
export function npsSplit(histogram: Array<{ value: number; count: number }>) {
  const count = (from: number, to: number) => histogram.filter((b) => b.value >= from && b.value <= to).reduce((s, b) => s + b.count, 0);
  const n = count(0, 10);
  const part = (c: number) => ({ count: c, share: pct(c, n) });
  return { promoters: part(count(9, 10)), passives: part(count(7, 8)), detractors: part(count(0, 6)) };
}

/** NPS from score counts, or null without answers. */
export function npsOf(values: Map<string, number>): { answered: number; nps: number | null } {
  let n = 0;
  let promoters = 0;
  let detractors = 0;
  for (const [v, c] of values) {
    const score = Number(v);
    if (!Number.isFinite(score)) continue;
    n += c;
    if (score >= 9) promoters += c;
    else if (score <= 6) detractors += c;
  }
  return { answered: n, nps: n > 0 ? Math.round(((promoters - detractors) / n) * 100) : null };
}

/** The ISO weeks (Monday to Sunday, UTC) of the NPS trend: the last NPS_WEEKS ending with `lastDay`'s, not before `firstDay`'s. */
export function trendWeeks(lastDay: string, firstDay?: string): Array<{ week: string; first: string; last: string }> {
  const end = new Date(`${lastDay}T00:00:00Z`);
  const monday = new Date(end.getTime() - ((end.getUTCDay() + 6) % 7) * 86_400_000);
  const out: Array<{ week: string; first: string; last: string }> = [];
  for (let i = NPS_WEEKS - 1; i >= 0; i--) {
    const start = new Date(monday.getTime() - i * 7 * 86_400_000);
    const week = start.toISOString().slice(0, 10);
    const sunday = new Date(start.getTime() + 6 * 86_400_000).toISOString().slice(0, 10);
    if (firstDay !== undefined && sunday < firstDay) continue;
    out.push({ week, first: firstDay !== undefined && week < firstDay ? firstDay : week, last: sunday > lastDay ? lastDay : sunday });
  }
  return out;
}

/** Mean and up to 10 equal-width bins (whole ones for whole numbers) of a number question, from its counts per value (3 significant digits). */
export function numberBins(sorted: ReadonlyArray<readonly [number, number]>) {
  const n = sorted.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return { mean: null, bins: [] };
  const mean = Number((sorted.reduce((s, [v, c]) => s + v * c, 0) / n).toPrecision(3));
  const lo = sorted[0]![0];
  const hi = sorted[sorted.length - 1]![0];
  // Whole numbers get whole bins (1-9, 10-18, ...); others equal widths from min to max.
  const whole = sorted.every(([v]) => Number.isInteger(v));
  const wanted = lo === hi ? 1 : Math.min(10, sorted.length);
  const width = whole ? Math.max(1, Math.ceil((hi - lo + 1) / wanted)) : (hi - lo) / wanted;
  const binCount = whole ? Math.ceil((hi - lo + 1) / width) : wanted;
  const bins = Array.from({ length: binCount }, (_, i) => ({
    from: Number((lo + i * width).toPrecision(3)),
    to: whole ? Math.min(hi, lo + (i + 1) * width - 1) : Number((i === binCount - 1 ? hi : lo + (i + 1) * width).toPrecision(3)),
    count: 0,
    share: 0,
  }));
  for (const [v, c] of sorted) {
    const i = width === 0 ? 0 : Math.min(binCount - 1, Math.floor((v - lo) / width));
    bins[i]!.count += c;
  }
  for (const b of bins) b.share = pct(b.count, n);
  return { mean, bins };
}

/** The newest uploaded files of a file question: name, URL, response. */
export function latestFiles(questionId: string, newest: ResponseRecord[]) {
  const out: Array<{ response_id: string; submitted_at: string; name: string; url: string }> = [];
  for (const r of newest) {
    const a = r.answers.find((x) => x.question_id === questionId);
    const v = a?.value as { url?: unknown; name?: unknown } | null | undefined;
    if (v && typeof v === 'object' && typeof v.url === 'string' && typeof v.name === 'string') {
      out.push({ response_id: r.id, submitted_at: r.submitted_at, name: v.name, url: v.url });
    }
    if (out.length === LATEST_FILES) break;
  }
  return out;
}

export const GROUP_TYPES = new Set(['question_group', 'multi_question_page']);

/**
 * A group's sub-questions as questions of their own, and the newest responses' answers to them as answers:
 * their summaries are made by the same code as a top-level question's, from those responses only (groups
 * have no counters; `sub_questions_sample` says how many responses that was).
 */
export function subQuestionsOf(q: Question, newest: ResponseRecord[]) {
  const subs = Array.isArray(q.properties.questions) ? (q.properties.questions as Array<{ id?: string; type: string; title: string }>) : [];
  const questions: Question[] = subs.map((s, i) => ({
    id: s.id ?? String(i), type: s.type, title: s.title, description: null, required: false, order: i, properties: {}, logic_jumps: [], validations: {},
  }));
  const counts: Array<{ question_id: string; value: string; count: number }> = [];
  const answered = new Map<string, number>();
  const responses: ResponseRecord[] = [];
  let sample = 0;
  for (const r of newest) {
    const a = r.answers.find((x) => x.question_id === q.id);
    const value = a?.value;
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    sample++;
    const fields = value as Record<string, unknown>;
    const answers: ResponseRecord['answers'] = [];
    for (const sq of questions) {
      const v = fields[sq.id];
      if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) continue;
      answered.set(sq.id, (answered.get(sq.id) ?? 0) + 1);
      answers.push({ question_id: sq.id, value: v } as ResponseRecord['answers'][number]);
      const key = sq.type === 'number' && typeof v === 'number' ? String(Number(v.toPrecision(3))) : sq.type === 'date' && typeof v === 'string' ? v.slice(0, 10) : typeof v === 'string' ? v.slice(0, 200) : null;
      if (key !== null && (sq.type === 'number' || sq.type === 'date' || sq.type === 'dropdown')) counts.push({ question_id: sq.id, value: key, count: 1 });
    }
    responses.push({ ...r, answers });
  }
  return { questions, counts, answered, responses, sample };
}
