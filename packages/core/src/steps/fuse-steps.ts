import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import type { FormRecord, FuseLink, Question, ResponseRecord, Version } from '../domain/types';
import { conflict, FormloomError } from '../errors';
import { isClosed } from '../forms/form-model';
import { sha256Hex } from '../hashing';
import { recallFiller } from '../notifications/mail-render';
import { PaymentQuestions } from '../payments/payment-questions';
import type { Clock } from '../ports/clock';
import { type IdGenerator, orderedId } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { SubmissionService } from '../responses/submission-service';
import { TOKENS } from '../tokens';
import { extraLanguages } from '../translations/translatable-texts';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';
import { reachedStep, type ReachedStep } from './step-access';

/** What `POST .../steps/:questionId` answers for a Fuse question (docs/logic.md "Fuse"). */
export const fuseStepOut = z.object({
  question_id: z.string(),
  type: z.literal('fuse'),
  /**
   * `continued`: this response is completed and its continuation started in the Fuse form (`next`);
   * `unavailable`: this response is completed, but the Fuse form no longer takes responses (unpublished, closed,
   * its pinned session archived): the page shows this form's end.
   */
  status: z.enum(['continued', 'unavailable']),
  /** True when an earlier call had done it (a reload, a retry): the same continuation is answered again. */
  duplicate: z.boolean(),
  next: z
    .object({
      form_id: z.string(),
      slug: z.string().describe("The Fuse form's address: its page is /f/<slug>"),
      response_id: z.string().describe("The continuation: a partial response of the Fuse form, with the mapped hidden fields"),
      resume_token: z.string().describe('Its X-Resume-Token, to answer the Fuse form in it (PATCH .../responses/:responseId)'),
      hidden: z.record(z.string(), z.string()).describe("The hidden fields it carries, for the Fuse form's recalls and logic"),
    })
    .nullable(),
});
export type FuseStepOut = z.infer<typeof fuseStepOut>;

type Props = { fuse_form_id?: string; session_id?: string; hidden_fields?: Record<string, string> };

/**
 * The continuation's resume token, derived from the respondent's own token for this response: a repeated call
 * (the same respondent) gets the same token back, and nothing else can make it (docs/decisions.md "Fuse").
 */
const continuationToken = (token: string, continuationId: string) =>
  Buffer.from(sha256Hex(`fuse:${token}:${continuationId}`), 'hex').toString('base64url');

/** A hidden value is at most what a respondent may send (response-schemas.ts). */
const HIDDEN_MAX = 1000;

/**
 * Fuse questions (docs/logic.md "Fuse"): when the respondent reaches one, the server completes the response
 * (its path ends at the Fuse) and starts its continuation in the Fuse form, a partial response carrying the
 * mapped hidden fields, in one transaction. Each response names the other (`fused_to`, `fused_from`).
 */
@injectable()
export class FuseSteps {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(SubmissionService) private readonly submissions: SubmissionService,
    @inject(WebhookDispatcher) private readonly webhooks: WebhookDispatcher,
    @inject(PaymentQuestions) private readonly payments: PaymentQuestions,
  ) {}

  /** POST /public/forms/:slug/responses/:responseId/steps/:questionId for a Fuse question. */
  async run(slug: string, responseId: string, token: string | undefined, questionId: string): Promise<FuseStepOut> {
    const reached = await reachedStep(this.storage, slug, responseId, token, questionId, 'fuse');
    const { response, question } = reached;
    if (response.metadata.fused_to) return this.answer(question, response.metadata.fused_to, token!, true);
    // Completed without a continuation: the Fuse form took no responses when it was reached.
    if (response.completed_at) return { question_id: question.id, type: 'fuse', status: 'unavailable', duplicate: true, next: null };
    // The path ends at the Fuse: its payments before it must be paid, as for a submission.
    const unpaid = await this.payments.unpaid(reached.snapshot.questions, new Set(reached.path), response);
    if (unpaid.length) throw conflict('A payment question is not paid yet', { reason: 'payment_required', question_ids: unpaid });
    const target = await this.target(reached.form, question);
    const continuation = target ? this.continuation(reached, target.form, target.version, token!) : null;
    const link: FuseLink | undefined = continuation ? { form_id: continuation.form_id, response_id: continuation.id } : undefined;
    const targets = await this.webhooks.targetsFor(reached.form);
    let after: (() => void) | null = null;
    try {
      await this.storage.transaction(async (tx) => {
        if (continuation && target) {
          await tx.responses.insert(continuation, this.submissions.csvLineOf(target.version.snapshot as { questions: Question[] }, continuation));
          const limit = typeof target.version.snapshot.response_limit === 'number' ? target.version.snapshot.response_limit : null;
          if (limit === null) await tx.forms.addResponseCount(continuation.form_id, 1);
          else if ((await tx.forms.claimResponseSlot(continuation.form_id, limit)) === null) throw conflict('The Fuse form is closed', { reason: 'form_closed' });
        }
        const metadata = link ? { ...response.metadata, fused_to: link } : response.metadata;
        after = await this.submissions.completeFusedIn(tx, reached.form, response, reached.snapshot as { questions: Question[] }, metadata, targets);
        // Completed meanwhile (a concurrent call): nothing of this call is kept.
        if (!after) throw new FormloomError('CONFLICT', 'completed meanwhile', { reason: 'response_completed' });
      });
    } catch (e) {
      if (!(e instanceof FormloomError && e.code === 'CONFLICT' && e.details.reason === 'response_completed')) throw e;
      const now = await this.storage.responses.findById(reached.form.id, response.id);
      if (now?.metadata.fused_to) return this.answer(question, now.metadata.fused_to, token!, true);
      throw conflict('This response is completed and cannot be changed', { reason: 'response_completed' });
    }
    (after as (() => void) | null)?.();
    return link ? this.answer(question, link, token!, false) : { question_id: question.id, type: 'fuse', status: 'unavailable', duplicate: false, next: null };
  }

  /** The Fuse form and the version the respondent continues in, or null when it takes no responses now. */
  private async target(form: FormRecord, question: Question): Promise<{ form: FormRecord; version: Version } | null> {
    const p = question.properties as Props;
    const linked = p.fuse_form_id ? await this.storage.forms.findById(p.fuse_form_id) : null;
    if (!linked || !linked.published || !linked.published_version_id) return null;
    // Another account's form is never a Fuse form (the publish check says not found).
    if (linked.team_id ? linked.team_id !== form.team_id : linked.owner_id !== form.owner_id) return null;
    const version = await this.storage.versions.findById(p.session_id || linked.published_version_id);
    if (!version || version.form_id !== linked.id) return null;
    if (isClosed(version.snapshot, linked.response_count, this.clock.now())) return null;
    return { form: linked, version };
  }

  /** The continuation: a partial response of the Fuse form with the mapped hidden fields it declares. */
  private continuation(reached: ReachedStep, form: FormRecord, version: Version, token: string): ResponseRecord {
    const { response, question, answers, hidden } = reached;
    const declared = new Set(Array.isArray(version.snapshot.hidden_fields) ? (version.snapshot.hidden_fields as string[]) : []);
    const recall = recallFiller(Object.entries(answers).map(([question_id, value]) => ({ question_id, value })), hidden);
    const carried: Record<string, string> = {};
    for (const [name, text] of Object.entries((question.properties as Props).hidden_fields ?? {})) {
      const value = recall(text).slice(0, HIDDEN_MAX);
      if (declared.has(name) && value !== '') carried[name] = value;
    }
    const offered = [version.snapshot.language, ...extraLanguages(version.snapshot)];
    const id = orderedId(this.ids, 'rsp');
    const now = this.clock.now().toISOString();
    return {
      id,
      form_id: form.id,
      visitor_id: response.visitor_id,
      version_id: version.id,
      version: version.version,
      answers: [],
      metadata: {
        user_agent: response.metadata.user_agent,
        referrer: response.metadata.referrer,
        ...(Object.keys(carried).length ? { hidden: carried } : {}),
        fused_from: { form_id: response.form_id, response_id: response.id },
      },
      quiz_results: null,
      started_at: now,
      submitted_at: now,
      completed_at: null,
      completion_seconds: null,
      resume_token_hash: sha256Hex(continuationToken(token, id)),
      unique_visitor: null,
      language: response.language && offered.includes(response.language) ? response.language : typeof version.snapshot.language === 'string' ? version.snapshot.language : null,
    };
  }

  private async answer(question: Question, link: FuseLink, token: string, duplicate: boolean): Promise<FuseStepOut> {
    const [form, continuation] = await Promise.all([this.storage.forms.findById(link.form_id), this.storage.responses.findById(link.form_id, link.response_id)]);
    const next = { form_id: link.form_id, slug: form?.slug ?? '', response_id: link.response_id, resume_token: continuationToken(token, link.response_id), hidden: continuation?.metadata.hidden ?? {} };
    return { question_id: question.id, type: 'fuse', status: 'continued', duplicate, next };
  }
}
