import { inject, injectable } from 'tsyringe';
import { notFound } from '../errors';
import type { Principal, Question } from '../domain/types';
import type { FunnelCounts, Storage } from '../ports/storage';
import { authorizeForm } from '../forms/form-access';
import { parseBody } from '../parse';
import { TOKENS } from '../tokens';
import { ReadCaches } from '../cache/read-caches';
import { parseVersion } from './answer-filter';
import { visitSchema } from './response-schemas';

/*
 * The funnel (issue 37; docs/responses-and-webhooks.md, "Funnel"): views -> starts -> each question reached
 * -> completed, per published version, with the drop-off between steps and the median time to complete.
 * Views and starts are what the respondent's page reports (`POST /public/forms/:slug/visits`); the rest is
 * counted from the responses by the storage's rollup, in step with every write, so the funnel reads a few
 * counter rows whatever the number of responses.
 */

export interface FunnelStep {
  kind: 'views' | 'starts' | 'question' | 'completed';
  question_id: string | null;
  label: string;
  count: number;
  /** Lost since the previous step (0 for the first, never negative). */
  drop_off: number;
  /** `drop_off` as a percentage of the previous step's count, two decimals (0 when it was 0). */
  drop_off_rate: number;
}

const pct = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10000) / 100 : 0);

/** The median of a distribution given as value -> count (the lower middle value for an even count). */
export function medianOf(counts: Map<number, number>): number | null {
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total <= 0) return null;
  let seen = 0;
  for (const v of [...counts.keys()].sort((a, b) => a - b)) {
    seen += counts.get(v)!;
    if (seen * 2 >= total) return v;
  }
  return null;
}

/** The steps of a funnel from its counters and the version's questions in order. */
export function funnelSteps(c: FunnelCounts, questions: Array<Pick<Question, 'id' | 'title'>>): FunnelStep[] {
  // A response is a start even when the page's report of it was lost (a blocker, a closed tab).
  const starts = Math.max(c.starts, c.responses);
  const views = Math.max(c.views, starts);
  const reached: number[] = [];
  let sum = 0;
  for (let i = questions.length - 1; i >= 0; i--) {
    sum += c.furthest.get(questions[i]!.id) ?? 0;
    reached[i] = sum;
  }
  const raw: Array<Omit<FunnelStep, 'drop_off' | 'drop_off_rate'>> = [
    { kind: 'views', question_id: null, label: 'Viewed the form', count: views },
    { kind: 'starts', question_id: null, label: 'Started', count: starts },
    ...questions.map((q, i) => ({ kind: 'question' as const, question_id: q.id, label: q.title || `Question ${i + 1}`, count: reached[i]! })),
    { kind: 'completed', question_id: null, label: 'Completed', count: c.completed },
  ];
  return raw.map((s, i) => {
    const before = i === 0 ? s.count : raw[i - 1]!.count;
    const lost = Math.max(0, before - s.count);
    return { ...s, drop_off: lost, drop_off_rate: pct(lost, before) };
  });
}

@injectable()
export class FunnelService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(ReadCaches) private readonly caches: ReadCaches,
  ) {}

  /** GET /forms/:id/analytics/funnel: one version's funnel (`version`, else the newest with counts or the published one). */
  async funnel(principal: Principal, formId: string, query: Record<string, unknown>) {
    const form = await authorizeForm(this.storage, principal, formId, 'read');
    const asked = parseVersion(query.version);
    const [versions, all] = await Promise.all([this.storage.responses.funnelVersions(formId), this.storage.versions.listByForm(formId)]);
    const known = [...new Set([...versions, ...all.map((v) => v.version)])].sort((a, b) => b - a);
    const published = all.find((v) => v.id === form.published_version_id)?.version;
    const version = asked ?? versions[0] ?? published ?? null;
    if (asked !== undefined && !known.includes(asked)) throw notFound('Version');
    const snapshot = all.find((v) => v.version === version)?.snapshot as { questions?: Question[] } | undefined;
    // A version's own questions in its order; without a snapshot (deleted history), the current ones.
    const questions = snapshot?.questions ?? (await this.storage.questions.listByForm(formId));
    const counts = await this.storage.responses.funnel(formId, version);
    const steps = funnelSteps(counts, [...questions].sort((a, b) => a.order - b.order));
    const median = medianOf(counts.seconds);
    return {
      form_id: formId,
      version,
      versions: known,
      steps,
      completion_rate: pct(counts.completed, steps[0]!.count),
      median_completion_seconds: median === null ? null : Math.round(median),
    };
  }

  /**
   * POST /public/forms/:slug/visits: the respondent's page reports a view (on load) or a start (the first
   * answer given); counted for the published version it shows. 404 when the form is not published.
   */
  async recordVisit(slug: string, body: unknown) {
    const input = parseBody(visitSchema, body);
    const found = await this.caches.publishedForm(this.storage, slug);
    if (!found) throw notFound('Form');
    const { form, version } = found;
    await this.storage.responses.recordVisits(form.id, version.version, input.event === 'view' ? 1 : 0, input.event === 'start' ? 1 : 0);
    return { success: true as const };
  }
}
