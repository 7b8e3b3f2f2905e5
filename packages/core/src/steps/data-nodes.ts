import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { FormloomConfig } from '../config';
import type { SecretBox } from '../crypto-box';
import type { Principal, Question } from '../domain/types';
import { forbidden, notFound } from '../errors';
import { authorizeForm, planHolderOf } from '../forms/form-access';
import { sha256Hex } from '../hashing';
import { recallFiller } from '../notifications/mail-render';
import type { Clock } from '../ports/clock';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import type { WebhookTransport } from '../ports/webhook-transport';
import { TOKENS } from '../tokens';
import { callSource, DEFAULT_TIMEOUT_MS, type DataOutcome } from './data-call';
import { openDataSecret } from './data-secrets';
import { keepDataRun } from './data-runs';
import { reachedStep } from './step-access';

const mapped = { variables: z.record(z.string(), z.unknown()), hidden: z.record(z.string(), z.string()) };

/** What `POST .../steps/:questionId` answers for a data node: the values for the page's recall and logic. */
export const dataStepOut = z.object({
  question_id: z.string(),
  type: z.literal('data'),
  /** `failed`: the node's fallback path applies (its `status_field` hidden field says `failed`). */
  status: z.enum(['ok', 'failed']),
  /** Whether the answer came from the node's cache (the same parameters within `cache_seconds`). */
  cached: z.boolean(),
  ...mapped,
});

export const testDataSchema = z
  .object({
    /** Sample values of earlier answers by question id, for the parameters' recalls. */
    answers: z.record(z.string().max(100), z.union([z.string().max(2000), z.number(), z.boolean(), z.null()])).optional(),
    hidden: z.record(z.string().max(100), z.string().max(2000)).optional(),
  })
  .strict();

/** What the builder's "Test the call" shows: the source's answer and what the mapping took from it. */
export const testDataOut = z.object({
  status: z.enum(['ok', 'failed']),
  http_status: z.number().int().nullable(),
  error: z.string().nullable(),
  /** The source's JSON answer (as read, at most 256 KiB). */
  body: z.unknown(),
  ...mapped,
});

type Props = { source?: string; method?: 'GET' | 'POST'; params?: Record<string, string>; mapping?: Record<string, string>; timeout_ms?: number; cache_seconds?: number; status_field?: string | null };

/**
 * Data nodes (docs/logic.md): when the respondent reaches the node, the server calls the owner's JSON source
 * with earlier answers as parameters and maps its answer into variables and hidden fields. An answer is kept
 * per form, node and parameters for `cache_seconds` (in the idempotency store, shared by the instances);
 * a failure gives the `failed` outcome the node's jumps can take a fallback path on.
 */
@injectable()
export class DataNodes {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(TOKENS.WebhookTransport) private readonly transport: WebhookTransport,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
  ) {}

  private async allowed(form: { owner_id: string; team_id: string | null }) {
    return (await this.plans.featuresFor(await planHolderOf(this.storage, form))).data_nodes;
  }

  private call(q: Question, answers: Record<string, unknown>, hidden: Record<string, string>) {
    const p = q.properties as Props;
    const recall = recallFiller(Object.entries(answers).map(([question_id, value]) => ({ question_id, value })), hidden);
    const params = Object.fromEntries(Object.entries(p.params ?? {}).map(([k, v]) => [k, recall(v)]));
    return {
      url: String(p.source ?? ''), method: p.method ?? 'GET', params, secret: openDataSecret(q.properties, this.box),
      timeoutMs: Math.min(p.timeout_ms ?? DEFAULT_TIMEOUT_MS, this.config.webhookTimeoutMs || DEFAULT_TIMEOUT_MS, 10_000), mapping: p.mapping ?? {},
    };
  }

  /** POST /public/forms/:slug/responses/:responseId/steps/:questionId for a data node. */
  async run(slug: string, responseId: string, token: string | undefined, questionId: string): Promise<z.infer<typeof dataStepOut>> {
    const { form, response, snapshot, question, answers, hidden } = await reachedStep(this.storage, slug, responseId, token, questionId, 'data');
    const p = question.properties as Props;
    const declared = new Set(snapshot.hidden_fields ?? []);
    const call = this.call(question, answers, hidden);
    const key = `data-node:${form.id}:${sha256Hex(JSON.stringify([response.version_id, question.id, call.method, call.url, call.params]))}`;
    const now = this.clock.now();
    let outcome: Pick<DataOutcome, 'status' | 'variables' | 'hidden'> | null = null;
    let cached = false;
    const ttl = p.cache_seconds ?? 0;
    if (ttl > 0) {
      const hit = await this.storage.idempotency.find(key);
      if (hit?.status === 'done' && hit.result && hit.expires_at > now.toISOString()) {
        outcome = hit.result as unknown as DataOutcome;
        cached = true;
      }
    }
    if (!outcome) {
      // A plan that lost data nodes after publishing: the node fails (its fallback path), nothing is called.
      const fresh: DataOutcome = (await this.allowed(form)) ? await callSource(this.transport, call) : { status: 'failed', http_status: null, error: 'data_node_requires_pro', variables: {}, hidden: {} };
      outcome = { status: fresh.status, variables: fresh.variables, hidden: fresh.hidden };
      if (ttl > 0 && fresh.status === 'ok') {
        const expires = new Date(now.getTime() + ttl * 1000).toISOString();
        if (await this.storage.idempotency.claim({ key, owner: form.id, created_at: now.toISOString(), expires_at: expires }, now.toISOString())) {
          await this.storage.idempotency.complete(key, outcome as Record<string, unknown>);
        }
      }
    }
    const shown: Record<string, string> = Object.fromEntries(Object.entries(outcome.hidden).filter(([k]) => declared.has(k)));
    if (p.status_field && declared.has(p.status_field)) shown[p.status_field] = outcome.status;
    // Kept for the path of the steps after it and of the completion, which stores them (data-runs.ts).
    await keepDataRun(this.storage, form.id, response.id, question.id, shown, now);
    return { question_id: question.id, type: 'data', status: outcome.status, cached, variables: outcome.variables, hidden: shown };
  }

  /** POST /forms/:id/questions/:questionId/data-test: the builder's "Test the call" with sample values (never cached). */
  async test(principal: Principal, formId: string, questionId: string, body: z.infer<typeof testDataSchema>): Promise<z.infer<typeof testDataOut>> {
    const form = await authorizeForm(this.storage, principal, formId, 'edit');
    const question = (await this.storage.questions.listByForm(formId)).find((q) => q.id === questionId && q.type === 'data');
    if (!question) throw notFound('Data node');
    if (!(await this.allowed(form))) throw forbidden('Data nodes need the Pro plan or higher', { reason: 'data_node_requires_pro', upgrade_required: true });
    const out = await callSource(this.transport, this.call(question, body.answers ?? {}, body.hidden ?? {}));
    return { status: out.status, http_status: out.http_status, error: out.status === 'failed' ? out.error : null, body: out.body ?? null, variables: out.variables, hidden: out.hidden };
  }
}
