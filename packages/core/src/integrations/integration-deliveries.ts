import { inject, injectable } from 'tsyringe';
import type { FormloomConfig } from '../config';
import type { SecretBox } from '../crypto-box';
import type { FormRecord, OutboxItem, Question, ResponseRecord } from '../domain/types';
import { type BirthLease, newOutboxItem, OutboxBirths } from '../outbox/outbox-items';
import { allSettledOrThrow } from '../errors';
import { errorText, failedAttempt } from '../outbox/retry';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OutboxHandler, OutboxOutcome } from '../ports/outbox-handler';
import type { IntegrationDeliveryEvent, IntegrationDeliveryRecord, IntegrationRecord, Storage } from '../ports/storage';
import { isDestinationRefused } from '../ports/webhook-transport';
import { FileLinks } from '../responses/file-links';
import { TOKENS } from '../tokens';
import { ReadCaches } from '../cache/read-caches';
import { RevisionCache } from '../cache/revision-cache';
import { responseExcerpt } from '../webhooks/webhook-delivery-handler';
import { storedConfig } from './integration-config';
import { exampleAnswers, integrationAnswers, integrationPayload } from './integration-payload';
import { IntegrationRegistry } from './integration-registry';
import type { IntegrationDelivery, IntegrationResult } from './integration-types';

export const INTEGRATION_KIND = 'integrations.delivery';
/** Days a settled delivery stays in an integration's log (docs/integrations.md, "Storage"). */
export const INTEGRATION_LOG_DAYS = 30;
/** Settled deliveries the housekeeping deletes per run at most, so one run never holds the database long. */
const SWEEP_BATCH = 5000;
/** Published versions whose questions a delivery handler keeps in memory. */
const VERSIONS_KEPT = 100;
/** Forms a delivery handler keeps (checked against the cache revision at every use). */
const FORMS_KEPT = 100;

/** The payload key, in memory only, of what an item leased at birth carries (never stored: see `queue`). */
export const BORN_WITH_CONTEXT = 'born_with_context';

/**
 * What a submission already holds for its deliveries: handed over with items leased at birth, so their first
 * run reads neither the delivery nor the response. The integration is not among it: it is looked up at the
 * run (`current`), so a pause or an edit made meanwhile applies.
 */
export interface BornContext {
  delivery: IntegrationDeliveryRecord;
  form: FormRecord;
  response: ResponseRecord;
  questions: Question[];
}

/** What `queue` takes from the submission being committed (responses/submission-service.ts, `CommittingResponse`). */
export interface QueueContext {
  form: FormRecord;
  response: ResponseRecord;
  questions: Question[];
  revision?: number;
  /** Given, items are leased at birth to this instance's worker and pushed here, to be handed to it after the commit. */
  born?: OutboxItem[];
}

/** The log's note on a delivery sent again, after a restart, to a service that cannot recognise a repeat. */
export const REPEAT_NOTE = 'Sent again after a restart: it may appear twice';

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

/** What one attempt came to, for the log and the outbox. */
export interface AttemptOutcome {
  ok: boolean;
  retry: boolean;
  /** The receiver's wish (Retry-After), in ms; null without one. */
  retryAfterMs: number | null;
  remove: boolean;
  /** The plugin said this attempt may have repeated a record (`IntegrationResult.mayRepeat`). */
  mayRepeat: boolean;
  status: number | null;
  excerpt: string | null;
  error: string | null;
  duration_ms: number;
}

/**
 * Deliveries of responses to integrations (docs/integrations.md): queued in the response's transaction, one
 * per active integration, and sent by the outbox (`integrations.delivery`) with the retry schedule of
 * webhooks; each attempt's outcome is kept on the delivery for the log.
 */
@injectable()
export class IntegrationDeliveries implements OutboxHandler {
  readonly kind = INTEGRATION_KIND;
  /** Questions of published versions by version id (immutable, so never stale). */
  private readonly versions = new Map<string, Question[]>();
  /** Opened settings per integration record: a record is kept (ReadCaches) until the revision moves, so each is opened once. */
  private readonly opened = new WeakMap<IntegrationRecord, ReturnType<typeof storedConfig>>();
  /** Forms by id for deliveries claimed from the outbox (their id and title go in the payload). */
  private readonly forms = new RevisionCache<string, FormRecord>(FORMS_KEPT);

  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Config) private readonly config: FormloomConfig,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(IntegrationRegistry) private readonly registry: IntegrationRegistry,
    @inject(FileLinks) private readonly links: FileLinks,
    @inject(ReadCaches) private readonly caches: ReadCaches,
    @inject(OutboxBirths) private readonly births: OutboxBirths,
  ) {}

  /**
   * A new delivery of `integration` and its outbox item, in `tx`, sent together (new rows, independent: a
   * transaction's writes of one kind go in one statement, docs/decisions.md "Writes sent together"). With
   * `held`, the item is leased at birth to this instance's worker when it has room for the destination, and
   * pushed to `held.born` carrying the delivery and what the submission read, for the worker after the commit.
   */
  async enqueue(tx: Storage, integration: IntegrationRecord, responseId: string | null, event: IntegrationDeliveryEvent, held?: QueueContext): Promise<IntegrationDeliveryRecord> {
    const now = this.clock.now().toISOString();
    const delivery: IntegrationDeliveryRecord = {
      id: this.ids.id('ind'),
      integration_id: integration.id,
      form_id: integration.form_id,
      response_id: responseId,
      event,
      status: 'pending',
      attempts: 0,
      last_status_code: null,
      last_duration_ms: null,
      last_error: null,
      last_response_excerpt: null,
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    };
    const destination = this.destinationOf(integration);
    const lease = held?.born ? this.births.lease(INTEGRATION_KIND, destination) : null;
    const item = this.itemOf(delivery.id, destination, now, 0, lease);
    await allSettledOrThrow([tx.integrations.insertDelivery(delivery), tx.outbox.enqueue(item)]);
    if (lease && held?.born) {
      const context: BornContext = { delivery, form: held.form, response: held.response, questions: held.questions };
      held.born.push({ ...item, payload: { ...item.payload, [BORN_WITH_CONTEXT]: context } });
    }
    return delivery;
  }

  private itemOf(deliveryId: string, destination: string, at: string, recorded: number, lease: BirthLease | null = null): OutboxItem {
    return newOutboxItem(this.ids, at, INTEGRATION_KIND, { delivery_id: deliveryId, destination, recorded_before: recorded }, lease);
  }

  /**
   * An outbox item that (re)sends a delivery at `at`. `recorded`: the attempts the delivery has recorded so
   * far, kept on the item so `handle` can tell a run of this item that started and never recorded its
   * outcome (docs/plugins.md, "Deliveries that may have been sent").
   */
  async requeue(tx: Storage, integration: IntegrationRecord, deliveryId: string, at: string, recorded: number): Promise<void> {
    await tx.outbox.enqueue(this.itemOf(deliveryId, this.destinationOf(integration), at, recorded));
  }

  /**
   * Whether an earlier run of `item` started (its lease was counted, outbox-worker.ts) and never recorded
   * its outcome on the delivery: the instance stopped (or its lease ran out) between sending and storing,
   * so the service may already have it. The item's runs started before this one, against the attempts the
   * delivery recorded since the item was queued.
   */
  static maybeDelivered(item: OutboxItem, delivery: IntegrationDeliveryRecord): boolean {
    const before = typeof item.payload.recorded_before === 'number' ? item.payload.recorded_before : 0;
    return item.attempts - 1 > delivery.attempts - before;
  }

  private destinationOf(integration: IntegrationRecord): string {
    const reg = this.registry.get(integration.type);
    try {
      const d = reg?.definition.destination ? this.settingsOf(integration) : null;
      return (d && reg!.definition.destination!(d.config, d.secrets)) || `integration:${integration.id}`;
    } catch {
      return `integration:${integration.id}`;
    }
  }

  /**
   * Queues a completed response's deliveries in its transaction (sent together); false when none needs a
   * claim: the form has no active integration, or every item was leased at birth (`held.born`). `held` is
   * what the submission being committed read: with its cache `revision` the form's integrations come from
   * memory while it holds (read in `tx` once per revision, not per response: docs/benchmarks.md, "Submissions
   * and webhooks"); without one they are read in `tx`.
   */
  async queue(tx: Storage, formId: string, responseId: string, held?: QueueContext): Promise<boolean> {
    const read = () => tx.integrations.listByForm(formId);
    const revision = held?.revision;
    const all = revision === undefined ? await read() : ((await this.caches.integrations.get(formId, revision, read)).value ?? []);
    const active = all.filter((i) => i.status === 'active');
    const bornBefore = held?.born?.length ?? 0;
    await allSettledOrThrow(active.map((i) => this.enqueue(tx, i, responseId, 'response.submitted', held)));
    return active.length > (held?.born?.length ?? 0) - bornBefore;
  }

  /** The integration's settings and opened secrets (copies: a plugin may change what it is given). */
  private settingsOf(integration: IntegrationRecord): ReturnType<typeof storedConfig> {
    let opened = this.opened.get(integration);
    if (!opened) this.opened.set(integration, (opened = storedConfig(this.box, integration)));
    return { config: { ...opened.config }, secrets: { ...opened.secrets } };
  }

  /**
   * A delivery's integration as it is now: the form's integrations from memory while the cache revision holds
   * (a pause, an edit or a delete moves it: docs/decisions.md, "Caches checked against a revision"), else read
   * by form. The revision read is shared by the deliveries that start in the same turn of the event loop, so a
   * burst of deliveries costs one read instead of one per delivery.
   */
  private async current(delivery: Pick<IntegrationDeliveryRecord, 'form_id' | 'integration_id'>): Promise<IntegrationRecord | null> {
    const { revision } = await this.caches.gate.check();
    const all = (await this.caches.integrations.get(delivery.form_id, revision, () => this.storage.integrations.listByForm(delivery.form_id))).value ?? [];
    return all.find((i) => i.id === delivery.integration_id) ?? null;
  }

  /** The form, from memory while the cache revision holds (a burst of deliveries reads it once). */
  private async formOf(id: string): Promise<FormRecord | null> {
    const { revision } = await this.caches.gate.check();
    return (await this.forms.get(id, revision, () => this.storage.forms.findById(id))).value;
  }

  /** The worker's housekeeping: settled deliveries older than INTEGRATION_LOG_DAYS leave the log. */
  async sweep(now: Date): Promise<void> {
    await this.storage.integrations.deleteSettledBefore(new Date(now.getTime() - INTEGRATION_LOG_DAYS * 24 * 3600_000).toISOString(), SWEEP_BATCH);
  }

  async destination(item: OutboxItem): Promise<string | null> {
    return typeof item.payload.destination === 'string' ? item.payload.destination : null;
  }

  /** The form's newest completed responses, newest first (nothing counted). */
  async latest(formId: string, limit: number): Promise<ResponseRecord[]> {
    return (await this.storage.responses.list({ formId, completed: true, offset: 0, limit, total: 0 })).items;
  }

  /**
   * The questions a response answered: its version's, else the form's current ones. A version never changes,
   * so its questions are kept (the newest VERSIONS_KEPT): a burst of responses to one form reads it once.
   */
  private async questionsOf(form: FormRecord, response: ResponseRecord | null): Promise<Question[]> {
    const versionId = response?.version_id;
    if (versionId) {
      const kept = this.versions.get(versionId);
      if (kept) return kept;
      const version = await this.storage.versions.findById(versionId);
      const questions = (version?.snapshot as { questions?: Question[] } | undefined)?.questions;
      if (questions) {
        if (this.versions.size >= VERSIONS_KEPT) this.versions.delete(this.versions.keys().next().value!);
        this.versions.set(versionId, questions);
        return questions;
      }
    }
    return (await this.storage.questions.listByForm(form.id)) as Question[];
  }

  /**
   * What `deliver` gets for a delivery: the response's mapped answers (file answers as signed links), or for a
   * test the form's newest completed response, else made-up answers. Null when the response is gone.
   */
  async input(
    integration: IntegrationRecord,
    delivery: Pick<IntegrationDeliveryRecord, 'id' | 'event' | 'response_id'>,
    attempt: number,
    maybeDelivered = false,
    born?: Pick<BornContext, 'form' | 'response' | 'questions'>,
  ): Promise<IntegrationDelivery | null> {
    const form = born?.form ?? (await this.formOf(integration.form_id));
    if (!form) return null;
    let response = born?.response ?? (delivery.response_id ? await this.storage.responses.findById(form.id, delivery.response_id) : null);
    if (delivery.response_id && !response) return null;
    if (!response && delivery.event === 'integration.test') {
      response = (await this.latest(form.id, 1))[0] ?? null;
    }
    const questions = born?.questions ?? (await this.questionsOf(form, response));
    const now = this.clock.now().toISOString();
    const source = response ?? { id: 'rsp_example', submitted_at: now, completed_at: now, metadata: { user_agent: null, referrer: null }, answers: exampleAnswers(questions) };
    const answers = integrationAnswers(questions, integration.fields, this.links.signAnswers(source.answers, questions));
    const { config, secrets } = this.settingsOf(integration);
    const responseUrl = `${this.config.publicUrl.replace(/\/+$/, '')}/forms/${encodeURIComponent(form.id)}/results/${encodeURIComponent(source.id)}`;
    return {
      id: delivery.id,
      event: delivery.event,
      attempt,
      maybeDelivered,
      integration: { id: integration.id, type: integration.type, name: integration.name, form_id: form.id },
      config,
      secrets,
      form: { id: form.id, title: form.title },
      answers,
      payload: integrationPayload({ event: delivery.event, deliveryId: delivery.id, form, response: source, answers, responseUrl }),
    };
  }

  /** Runs the plugin's `deliver` once and reads what it came to (docs/integrations.md, "Outcomes"). */
  async attempt(integration: IntegrationRecord, input: IntegrationDelivery): Promise<AttemptOutcome> {
    const reg = this.registry.get(integration.type);
    const started = Date.now();
    if (!reg) {
      // The plugin may come back with the next start: retried on the schedule.
      return { ok: false, retry: true, retryAfterMs: null, remove: false, mayRepeat: false, status: null, excerpt: null, error: `No plugin of this instance provides the integration type "${integration.type}"`, duration_ms: 0 };
    }
    let result: IntegrationResult | null = null;
    let error: string | null = null;
    let refused = false;
    let timer: NodeJS.Timeout | undefined;
    const limit = this.config.webhookTimeoutMs * 3;
    try {
      result = await Promise.race([
        reg.definition.deliver(input, reg.ctx),
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`No outcome after ${limit} ms`)), limit))),
      ]);
    } catch (e) {
      error = errorText(e);
      refused = isDestinationRefused(e);
    } finally {
      clearTimeout(timer);
    }
    const duration_ms = Date.now() - started;
    if (!result) return { ok: false, retry: !refused, retryAfterMs: null, remove: false, mayRepeat: false, status: null, excerpt: null, error, duration_ms };
    const status = result.status ?? null;
    const ok = result.ok ?? (status !== null && status >= 200 && status < 300);
    const retry = !ok && (result.retry ?? (status === null || retryable(status)));
    const why = ok ? null : (result.error ?? (status === null ? 'Not sent' : status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`));
    const wait = typeof result.retryAfterMs === 'number' && Number.isFinite(result.retryAfterMs) && result.retryAfterMs > 0 ? Math.min(result.retryAfterMs, 24 * 3600_000) : null;
    return { ok, retry, retryAfterMs: wait, remove: result.remove === true, mayRepeat: result.mayRepeat === true, status, excerpt: responseExcerpt(result.body ?? undefined), error: why, duration_ms };
  }

  /** The delivery's fields after an attempt. */
  patchOf(outcome: AttemptOutcome, attempts: number, final: OutboxOutcome | null) {
    const now = this.clock.now().toISOString();
    return {
      status: final ? (final.status === 'delivered' ? 'delivered' : final.status) : outcome.ok ? 'delivered' : 'failed',
      attempts,
      last_status_code: outcome.status,
      last_duration_ms: outcome.duration_ms,
      last_error: outcome.error,
      last_response_excerpt: outcome.excerpt,
      next_attempt_at: final?.status === 'pending' ? final.nextAttemptAt : null,
      updated_at: now,
    } as const;
  }

  async handle(item: OutboxItem): Promise<OutboxOutcome> {
    // An item leased at birth runs right after its commit with what the submission held: nothing to read.
    const born = item.payload[BORN_WITH_CONTEXT] as BornContext | undefined;
    const delivery = born?.delivery ?? (await this.storage.integrations.findDelivery(String(item.payload.delivery_id)));
    if (!delivery) return { status: 'failed', error: 'delivery deleted' };
    const integration = await this.current(delivery);
    if (!integration) return { status: 'failed', error: 'integration deleted' };
    const attempts = delivery.attempts + 1;
    const fail = (error: string) => ({
      status: 'failed' as const,
      error,
      record: (tx: Storage) => tx.integrations.updateDelivery(delivery.id, { status: 'failed', attempts, last_error: error, next_attempt_at: null, updated_at: this.clock.now().toISOString() }),
    });
    if (integration.status === 'paused' && delivery.event !== 'integration.test') return fail('Not sent: the integration is paused (send it again from the log)');
    const maybeDelivered = IntegrationDeliveries.maybeDelivered(item, delivery);
    const input = await this.input(integration, delivery, attempts, maybeDelivered, born);
    if (!input) return fail('The response was deleted');
    const outcome = await this.attempt(integration, input);
    if (outcome.ok && maybeDelivered && (outcome.mayRepeat || !this.registry.get(integration.type)?.definition.deduplicates)) {
      // The service takes no key to recognise a repeat (chat webhooks): the log says so, in words.
      outcome.error = REPEAT_NOTE;
    }
    let settled: OutboxOutcome = outcome.ok ? { status: 'delivered' } : failedAttempt(this.clock.now(), attempts, outcome.error!, { retry: outcome.retry });
    if (settled.status === 'pending' && outcome.retryAfterMs !== null) {
      const asked = new Date(this.clock.now().getTime() + outcome.retryAfterMs).toISOString();
      if (asked > settled.nextAttemptAt) settled = { ...settled, nextAttemptAt: asked };
    }
    const patch = this.patchOf(outcome, attempts, settled);
    return {
      ...settled,
      // A plugin that recognises repeats is exactly once whenever its slot frees; a chat webhook is not.
      holdSlot: !this.registry.get(integration.type)?.definition.deduplicates,
      record: async (tx) => {
        await tx.integrations.updateDelivery(delivery.id, patch);
        if (outcome.remove) await tx.integrations.delete(integration.id);
      },
    };
  }
}
