import { timingSafeEqual } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { allSettledOrThrow, badRequest, conflict, FormloomError, notFound } from '../errors';
import type { Answer, FormRecord, OutboxItem, Question, ResponseRecord, Version } from '../domain/types';
import type { Clock } from '../ports/clock';
import { type IdGenerator, orderedId } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { type AnswerContext, isUploadUrlOf, startedAtProblem } from './answer-validation';
import type { FormloomConfig } from '../config';
import { computeQuizResults } from './quiz';
import { patchResponseSchema, submitResponseSchema } from './response-schemas';
import { parseBody } from '../parse';
import { presentResponseToRespondent as presentResponse } from './response-presenter';
import { TOKENS } from '../tokens';
import { sha256Hex as sha256 } from '../hashing';
import type { FormloomEvents } from '../events';
import { WebhookDispatcher, type WebhookTarget } from '../webhooks/webhook-dispatcher';
import { withDataNodeHidden } from '../steps/data-runs';
import { isClosed } from '../forms/form-model';
import { uploadKeysIn } from './upload-service';
import { ReadCaches } from '../cache/read-caches';
import { responseLanguage } from '../translations/response-language';
import { GroupCommit } from './group-commit';
import { CsvLines } from './codecs/csv-lines';
import { PaymentQuestions } from '../payments/payment-questions';
import { type ComponentSink, type PreparedComponents, planComposite, prepareComponents, withComponentLinks, writeComponentsIn } from './composite-submission';
import { idempotencyClaim, replayOf, storedResponse } from './submission-idempotency';
import { assertAnswers, hiddenValues, shownQuestions } from './submission-checks';

/** A completed response in its transaction, with the form and questions its submission read. */
export interface CommittingResponse {
  form: FormRecord;
  response: ResponseRecord;
  questions: Question[];
  /** The cache revision the form was checked against (a new submission's): what listeners keep may be served under it. */
  revision?: number;
  /**
   * Where listeners put outbox items they leased at birth to this instance's worker (integrations), to be handed
   * to it once the transaction committed; absent where the caller hands nothing over (then nothing is leased).
   */
  born?: OutboxItem[];
}

export interface RequestMeta {
  user_agent: string | null;
  referer: string | null;
  /**
   * Screens a new response before anything is checked or stored (docs/respondents.md "Spam protection"):
   * given the published snapshot, the form's id and the body's `spam_check`, it throws to refuse.
   */
  screen?: (snapshot: Record<string, unknown>, formId: string, spamCheck: unknown) => Promise<void>;
  /** The request's `Idempotency-Key` (completed submissions: submission-idempotency.ts). */
  idempotency_key?: string;
}

/** Respondents' side: submitting to the published version, partial responses and their completion. */
@injectable()
export class SubmissionService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(WebhookDispatcher) private readonly webhooks: WebhookDispatcher,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(ReadCaches) private readonly caches: ReadCaches,
    @inject(GroupCommit) private readonly commits: GroupCommit,
    @inject(PaymentQuestions) private readonly paymentQuestions: PaymentQuestions,
  ) {}

  /** 409 `payment_required` while a payment question on the respondent's path is not paid (docs/payments.md). */
  private async assertPaid(questions: Question[], shown: ReadonlySet<string>, response: Pick<ResponseRecord, 'id'> | null) {
    const unpaid = await this.paymentQuestions.unpaid(questions, shown, response);
    if (unpaid.length) throw conflict('A payment question is not paid yet: the response completes once the payment succeeded', { reason: 'payment_required', question_ids: unpaid });
  }

  private readonly csvLines = new CsvLines();

  /**
   * The submissions being committed, by transaction and response id: what the submission already read (the
   * form, current under the cache revision it was checked against; the response; its version's questions),
   * for the `response.submitted` listeners of that transaction (notifications/response-mails.ts), so they
   * read none of it again while the write transaction is held (docs/benchmarks.md, "Submissions and webhooks").
   */
  private readonly committing = new WeakMap<Storage, Map<string, CommittingResponse>>();

  /** What the submission of `responseId` being committed in `tx` holds; undefined outside its listeners. */
  committingIn(tx: Storage, responseId: string): CommittingResponse | undefined {
    return this.committing.get(tx)?.get(responseId);
  }

  /** Runs the transaction's `response.submitted` listeners with what the submission holds at hand. */
  private async completedIn(tx: Storage, held: CommittingResponse): Promise<boolean> {
    let open = this.committing.get(tx);
    if (!open) this.committing.set(tx, (open = new Map()));
    open.set(held.response.id, held);
    try {
      return await this.events.runWithinTransaction(tx, 'response.submitted', { form_id: held.form.id, response_id: held.response.id });
    } finally {
      open.delete(held.response.id);
    }
  }

  /** File answers must name uploads of this form on this instance. */
  private answerContext(formId: string): AnswerContext {
    return { isUploadUrl: (url) => isUploadUrlOf(this.config.publicUrl, formId, url) };
  }

  /** The published form and version, from memory while the cache revision holds (docs/decisions.md). */
  private async published(slug: string): Promise<{ form: FormRecord; version: Version; revision: number }> {
    const found = await this.caches.publishedForm(this.storage, slug);
    if (!found) throw notFound('Form');
    return found;
  }

  /** POST /public/forms/:slug/responses: 201 with the response (and `resume_token` for a partial one). */
  async submit(slug: string, body: unknown, meta: RequestMeta) {
    const input = parseBody(submitResponseSchema, body);
    const { form, version, revision } = await this.published(slug);
    await meta.screen?.(version.snapshot, form.id, input.spam_check);
    const snapshot = version.snapshot as { questions: Question[]; mode?: string; quiz_settings?: unknown; start_logic_jumps?: unknown };
    const complete = input.completed ?? true;
    if (isClosed(version.snapshot, form.response_count, this.clock.now())) throw conflict('This form is closed', { reason: 'form_closed' });
    const hidden = hiddenValues(version.snapshot, input.hidden);
    // A payment is made, an email step, data node or Fuse run (docs/logic.md), for a saved partial response
    // (docs/payments.md): forms with one of those take them.
    const takesPayment = snapshot.questions.some((q) => q.type === 'payment' || q.type === 'email_step' || q.type === 'data' || q.type === 'fuse');
    if (!complete && form.options.incremental_submission !== true && !takesPayment) {
      throw badRequest('completed: this form does not accept partial responses', { field: 'completed' });
    }
    const answers = input.answers.map((a) => ({ question_id: a.question_id, value: a.value ?? null }));
    const shown = shownQuestions(snapshot, answers, hidden);
    // Composite answers are checked against their components (composite-submission.ts), the rest as usual.
    const composite = planComposite(snapshot.questions, answers, shown, complete, hidden ?? {});
    assertAnswers(snapshot.questions, composite.ownAnswers, complete, { ...this.answerContext(form.id), shown });
    if (complete && takesPayment) await this.assertPaid(snapshot.questions, shown, null);
    // The spam check's proof is new at each try: not part of what makes two tries the same submission.
    const sameAs = { ...input, spam_check: undefined };
    const replay = complete ? await replayOf(this.storage, form.id, meta.idempotency_key, sameAs) : null;
    if (replay) return presentResponse(await storedResponse(this.storage, form.id, replay));
    const now = this.clock.now();
    const startedProblem = input.started_at ? startedAtProblem(new Date(input.started_at), now) : null;
    if (startedProblem) throw badRequest(`started_at: ${startedProblem}`, { field: 'started_at' });
    const limitOne = form.options.limit_one_response === true && !!input.visitor_id;
    if (complete && limitOne && (await this.storage.responses.hasUniqueVisitor(form.id, input.visitor_id!))) {
      throw conflict('This visitor has already responded to this form', { reason: 'already_responded' });
    }
    const nowIso = now.toISOString();
    const startedAt = input.started_at ? new Date(input.started_at).toISOString() : null;
    const resumeToken = complete ? null : this.ids.secret(24);
    let response: ResponseRecord = {
      id: orderedId(this.ids, 'rsp'),
      form_id: form.id,
      visitor_id: input.visitor_id ?? null,
      version_id: version.id,
      version: version.version,
      answers,
      metadata: { user_agent: meta.user_agent, referrer: input.metadata?.referrer ?? meta.referer ?? null, ...(hidden ? { hidden } : {}) },
      quiz_results: complete ? computeQuizResults(snapshot.mode ?? 'standard', snapshot.quiz_settings, snapshot.questions, answers) : null,
      started_at: startedAt ?? nowIso,
      submitted_at: nowIso,
      completed_at: complete ? nowIso : null,
      completion_seconds: complete ? elapsedSeconds(startedAt, now) : null,
      resume_token_hash: resumeToken ? sha256(resumeToken) : null,
      unique_visitor: complete && limitOne ? input.visitor_id! : null,
      language: responseLanguage(version.snapshot, input.language),
    };
    const components = await prepareComponents(this.storage, this.webhooks, form, response, composite.parts, now, () => orderedId(this.ids, 'rsp'));
    response = withComponentLinks(response, components.writes);
    const idempotent = complete && meta.idempotency_key ? idempotencyClaim(form.id, meta.idempotency_key, sameAs, nowIso) : null;
    const presented = { ...presentResponse(response), ...(resumeToken ? { resume_token: resumeToken } : {}) };
    const csv = this.csvLines.of(snapshot, response);
    const targets = complete ? await this.webhooks.targetsFor(form, revision) : [];
    const limit = typeof version.snapshot.response_limit === 'number' ? version.snapshot.response_limit : null;
    let queued = false;
    let items: OutboxItem[] = [];
    // Committed with the submissions that arrive meanwhile (group-commit.ts); answered once committed.
    const replayed = await this.commits.run(async (tx) => {
      // A work may run twice (group-commit.ts): only what its last run queued is handed over after the commit.
      [items, queued] = [[], false];
      // The same Idempotency-Key committed first: its answer, and nothing written (docs/decisions.md "Composite forms").
      if (idempotent) {
        const earlier = await idempotent.claimIn(tx);
        if (earlier) return earlier;
      }
      const inserted = tx.responses.insert(response, csv).catch((e) => {
        throw e instanceof FormloomError && e.code === 'CONFLICT'
          ? conflict('This visitor has already responded to this form', { reason: 'already_responded' })
          : e;
      });
      // With a limit, the count goes up only below it, in one conditional update: a submission past the
      // limit (concurrent ones, in this process or another instance) is refused and its insert rolled back.
      // Sent with the insert, after it (one round trip while the transaction is held): a connection runs
      // them in that order, the order deletions take the rows in (no deadlock on PostgreSQL).
      const counted = limit === null
        ? tx.forms.addResponseCount(form.id, 1)
        : tx.forms.claimResponseSlot(form.id, limit).then((n) => {
            if (n === null) throw conflict('This form is closed', { reason: 'form_closed' });
          });
      await allSettledOrThrow([inserted, counted]);
      await tx.uploads.attach(form.id, uploadKeysIn(form.id, response.answers), response.id);
      if (complete) items = await this.webhooks.enqueue(tx, form, response, targets, snapshot.questions);
      const born: OutboxItem[] = [];
      if (complete) queued = await this.completedIn(tx, { form, response, questions: snapshot.questions, revision, born });
      items = [...items, ...born];
      // One response in each component, in the same transaction: all or none (docs/logic.md "Composite").
      const written = await writeComponentsIn(tx, components, this.componentSink);
      [items, queued] = [[...items, ...written.items], written.queued || queued];
      if (idempotent) await idempotent.complete(tx, response.id);
      return null;
    });
    if (replayed) return presentResponse(await storedResponse(this.storage, form.id, replayed));
    if (complete) this.events.emit('response.submitted', { form_id: form.id, response_id: response.id });
    for (const w of components.writes) this.events.emit('response.submitted', { form_id: w.form.id, response_id: w.response.id });
    this.announce(items, queued);
    return presented;
  }

  /** What a composite's component responses are written with (composite-submission.ts). */
  private readonly componentSink: ComponentSink = {
    csv: (snapshot, response) => this.csvLines.of(snapshot, response),
    enqueue: (tx, form, response, targets, questions) => this.webhooks.enqueue(tx, form, response, targets, questions),
    completed: (tx, held) => this.completedIn(tx, held),
  };

  /** After a commit: its webhook items go to the worker that leased them, the rest wake the worker to claim. */
  private announce(items: OutboxItem[], queued: boolean) {
    const allLeased = this.webhooks.started(items);
    if (queued || !allLeased) this.events.emit('outbox.enqueued', { kind: items.length && !allLeased ? 'webhook' : 'plugin' });
  }

  /** PATCH a partial response with `X-Resume-Token`: adds answers and may complete it. */
  async patch(slug: string, responseId: string, token: string | undefined, body: unknown) {
    const input = parseBody(patchResponseSchema, body);
    const form = await this.storage.forms.findBySlug(slug);
    if (!form) throw notFound('Response');
    const existing = await this.storage.responses.findById(form.id, responseId);
    if (!existing || !existing.resume_token_hash) throw notFound('Response');
    const given = Buffer.from(sha256(token ?? ''), 'hex');
    if (!token || !timingSafeEqual(given, Buffer.from(existing.resume_token_hash, 'hex'))) {
      throw new FormloomError('UNAUTHORIZED', 'X-Resume-Token is missing or does not match this response');
    }
    if (existing.completed_at) throw conflict('This response is completed and cannot be changed', { reason: 'response_completed' });
    const version = existing.version_id ? await this.storage.versions.findById(existing.version_id) : null;
    // A started response may still be completed once the limit is reached (it counts already), not after close_at.
    if (version && isClosed({ close_at: version.snapshot.close_at }, 0, this.clock.now())) throw conflict('This form is closed', { reason: 'form_closed' });
    const snapshot = (version?.snapshot ?? { questions: [] }) as { questions: Question[]; mode?: string; quiz_settings?: unknown; start_logic_jumps?: unknown };
    const merged = new Map(existing.answers.map((a) => [a.question_id, a]));
    const incoming = (input.answers ?? []).map((a) => ({ question_id: a.question_id, value: a.value ?? null }));
    const ctx = this.answerContext(form.id);
    assertAnswers(snapshot.questions, planComposite(snapshot.questions, incoming, new Set(), false).ownAnswers, false, ctx);
    for (const a of incoming) merged.set(a.question_id, a);
    const answers = [...merged.values()];
    const complete = input.completed === true;
    let components: PreparedComponents = { writes: [], targets: [] };
    // At completion the hidden fields the data nodes set join the stored ones (null: the metadata is kept).
    const nodeMetadata = complete ? await withDataNodeHidden(this.storage, existing, snapshot.questions) : null;
    if (complete) {
      const shown = shownQuestions(snapshot, answers, (nodeMetadata ?? existing.metadata).hidden);
      const composite = planComposite(snapshot.questions, answers, shown, true, (nodeMetadata ?? existing.metadata).hidden ?? {});
      assertAnswers(snapshot.questions, composite.ownAnswers, true, { ...ctx, shown });
      await this.assertPaid(snapshot.questions, shown, existing);
      components = await prepareComponents(this.storage, this.webhooks, form, existing, composite.parts, this.clock.now(), () => orderedId(this.ids, 'rsp'));
    }
    const limitOne = complete && form.options.limit_one_response === true && !!existing.visitor_id;
    if (limitOne && (await this.storage.responses.hasUniqueVisitor(form.id, existing.visitor_id!))) {
      throw conflict('This visitor has already responded to this form', { reason: 'already_responded' });
    }
    const now = this.clock.now();
    const patch = {
      answers,
      submitted_at: existing.submitted_at,
      completed_at: complete ? now.toISOString() : null,
      completion_seconds: complete ? elapsedSeconds(existing.started_at, now) : null,
      quiz_results: complete ? computeQuizResults(snapshot.mode ?? 'standard', snapshot.quiz_settings, snapshot.questions, answers) : null,
      unique_visitor: limitOne ? existing.visitor_id : null,
    };
    const updated = withComponentLinks({ ...existing, ...(nodeMetadata ? { metadata: nodeMetadata } : {}), ...patch }, components.writes);
    const targets = complete ? await this.webhooks.targetsFor(form) : [];
    let queued = false;
    let items: OutboxItem[] = [];
    await this.storage.transaction(async (tx) => {
      const ok = await tx.responses.updatePartial(form.id, responseId, components.writes.length || nodeMetadata ? { ...patch, metadata: updated.metadata } : patch, this.csvLines.of(snapshot, updated));
      // Not updated: gone with its form's delete since the read above (404), else completed meanwhile (409).
      if (!ok) throw (await tx.responses.findById(form.id, responseId)) ? conflict('This response is completed and cannot be changed', { reason: 'response_completed' }) : notFound('Response');
      await tx.uploads.attach(form.id, uploadKeysIn(form.id, patch.answers), responseId);
      if (complete) items = await this.webhooks.enqueue(tx, form, updated, targets, snapshot.questions);
      if (complete) queued = await this.completedIn(tx, { form, response: updated, questions: snapshot.questions });
      // The components' responses, with the completion or not at all (docs/logic.md "Composite").
      const written = await writeComponentsIn(tx, components, this.componentSink);
      [items, queued] = [[...items, ...written.items], written.queued || queued];
    });
    if (complete) this.events.emit('response.submitted', { form_id: form.id, response_id: responseId });
    for (const w of components.writes) this.events.emit('response.submitted', { form_id: w.form.id, response_id: w.response.id });
    this.announce(items, queued);
    return presentResponse(updated);
  }

  /**
   * Completes a partial response whose payment just succeeded, inside the transaction applying the processor's
   * event (docs/payments.md, "Closed pages"): when every required question on its path is answered and every
   * payment question on it is paid; else it stays partial for the page to complete. Returns what to run once the
   * transaction committed (the event and the worker's wake-up), or null when nothing was completed.
   */
  async completePaidIn(tx: Storage, formId: string, responseId: string): Promise<(() => void) | null> {
    const form = await tx.forms.findById(formId);
    const existing = form ? await tx.responses.findById(formId, responseId) : null;
    if (!form || !existing || existing.completed_at) return null;
    const version = existing.version_id ? await tx.versions.findById(existing.version_id) : null;
    const snapshot = (version?.snapshot ?? { questions: [] }) as { questions: Question[]; mode?: string; quiz_settings?: unknown; start_logic_jumps?: unknown };
    const nodeMetadata = await withDataNodeHidden(tx, existing, snapshot.questions);
    const shown = shownQuestions(snapshot, existing.answers, (nodeMetadata ?? existing.metadata).hidden);
    try {
      assertAnswers(snapshot.questions, existing.answers, true, { ...this.answerContext(form.id), shown });
    } catch {
      return null;
    }
    for (const q of snapshot.questions.filter((x) => x.type === 'payment' && shown.has(x.id))) {
      const p = await tx.payments.findFor(existing.id, q.id);
      if (!p || !['succeeded', 'partially_refunded', 'refunded'].includes(p.status)) return null;
    }
    const limitOne = form.options.limit_one_response === true && !!existing.visitor_id;
    if (limitOne && (await tx.responses.hasUniqueVisitor(form.id, existing.visitor_id!))) return null;
    return this.completeStoredIn(tx, form, existing, snapshot, limitOne, nodeMetadata, null);
  }

  /**
   * Completes a partial response at its Fuse question (docs/logic.md "Fuse"), in `tx`, with `metadata` (its
   * `fused_to` link): its path ends there, so the questions after the Fuse are not asked; the caller checked
   * that the saved answers lead to it and its payments are paid. A second completion of a
   * `limit_one_response` visitor is 409 `already_responded`. `targets` are read before the
   * transaction (`targetsFor`). Returns what to run once it committed, or null when it was completed meanwhile.
   */
  async completeFusedIn(
    tx: Storage,
    form: FormRecord,
    existing: ResponseRecord,
    full: { questions: Question[]; mode?: string; quiz_settings?: unknown; hidden_fields?: unknown },
    metadata: ResponseRecord['metadata'],
    targets: WebhookTarget[],
  ): Promise<(() => void) | null> {
    const limitOne = form.options.limit_one_response === true && !!existing.visitor_id;
    if (limitOne && (await tx.responses.hasUniqueVisitor(form.id, existing.visitor_id!))) {
      throw conflict('This visitor has already responded to this form', { reason: 'already_responded' });
    }
    const withNodes = (await withDataNodeHidden(tx, { ...existing, metadata }, full.questions)) ?? metadata;
    return this.completeStoredIn(tx, form, existing, full, limitOne, withNodes, targets);
  }

  /**
   * Completes `existing` in `tx` with the answers it has (a payment's and a Fuse's completion), `metadata`
   * replacing its own when given, and queues its webhooks (to `targets`, else read now) and completion work.
   * Returns what to run once it committed, or null when it was completed meanwhile.
   */
  private async completeStoredIn(
    tx: Storage,
    form: FormRecord,
    existing: ResponseRecord,
    snapshot: { questions: Question[]; mode?: string; quiz_settings?: unknown; hidden_fields?: unknown },
    limitOne: boolean,
    metadata: ResponseRecord['metadata'] | null,
    targets: WebhookTarget[] | null,
  ): Promise<(() => void) | null> {
    const now = this.clock.now();
    const patch = {
      answers: existing.answers,
      submitted_at: existing.submitted_at,
      completed_at: now.toISOString(),
      completion_seconds: elapsedSeconds(existing.started_at, now),
      quiz_results: computeQuizResults(snapshot.mode ?? 'standard', snapshot.quiz_settings, snapshot.questions, existing.answers),
      unique_visitor: limitOne ? existing.visitor_id : null,
      ...(metadata ? { metadata } : {}),
    };
    const updated = { ...existing, ...patch };
    if (!(await tx.responses.updatePartial(form.id, existing.id, patch, this.csvLines.of(snapshot, updated)))) return null;
    const items = await this.webhooks.enqueue(tx, form, updated, targets ?? (await this.webhooks.targetsFor(form)), snapshot.questions);
    const queued = await this.completedIn(tx, { form, response: updated, questions: snapshot.questions });
    return () => {
      this.events.emit('response.submitted', { form_id: form.id, response_id: existing.id });
      this.announce(items, queued);
    };
  }

  /** A new partial response's export line (the Fuse form's start, docs/logic.md "Fuse"). */
  csvLineOf(snapshot: { questions: Question[]; hidden_fields?: unknown }, response: ResponseRecord) {
    return this.csvLines.of(snapshot, response);
  }
}

/** The parts of SubmissionService the payments' webhook completes a paid response with. */
export interface PaidCompletion {
  completePaidIn(tx: Storage, formId: string, responseId: string): Promise<(() => void) | null>;
}

function elapsedSeconds(startedAt: string | null, now: Date): number | null {
  if (!startedAt) return null;
  return Math.max(0, Math.round((now.getTime() - new Date(startedAt).getTime()) / 1000));
}
