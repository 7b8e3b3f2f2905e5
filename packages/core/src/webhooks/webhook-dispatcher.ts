import { allSettledOrThrow } from '../errors';
import { inject, injectable } from 'tsyringe';
import type { FormRecord, OutboxItem, Question, ResponseRecord, WebhookDelivery } from '../domain/types';
import type { Clock } from '../ports/clock';
import { type IdGenerator, orderedId } from '../ports/id-generator';
import type { Plans } from '../ports/plans';
import type { PaymentRecord, Storage } from '../ports/storage';
import { presentPayment } from '../payments/payment-out';
import { planHolderOf } from '../forms/form-access';
import { TOKENS } from '../tokens';
import { type BirthLease, newOutboxItem, OutboxBirths } from '../outbox/outbox-items';
import { ReadCaches } from '../cache/read-caches';
import { FileLinks } from '../responses/file-links';
import type { WEBHOOK_EVENTS } from './output-schemas';

/** The payload key, in memory only, of the delivery an item leased at birth carries (never stored). */
export const BORN_WITH = 'born_with_delivery';

export interface WebhookTarget {
  url: string;
  /** The account whose signing secret signs the delivery. */
  user_id: string;
}

/** Turns a completed response into durable webhook deliveries, written in the response's transaction. */
@injectable()
export class WebhookDispatcher {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(OutboxBirths) private readonly births: OutboxBirths,
    @inject(ReadCaches) private readonly caches: ReadCaches,
    @inject(FileLinks) private readonly links: FileLinks,
  ) {}

  /**
   * The form URL and the account's enabled global URLs, when the plan includes webhooks. Call outside
   * transactions. With the cache `revision` the form was read under, they are kept in memory while it holds
   * (the revision covers the form, its team's owner, the owner's plan and global webhooks), so submissions
   * to a form read none of that; not when the plan provider answers from outside storage.
   */
  async targetsFor(form: FormRecord, revision?: number): Promise<WebhookTarget[]> {
    if (revision === undefined || !this.plans.fromStoredPlan) return this.readTargets(form);
    return (await this.caches.targets.get(form.id, revision, () => this.readTargets(form))).value ?? [];
  }

  private async readTargets(form: FormRecord): Promise<WebhookTarget[]> {
    const holder = await planHolderOf(this.storage, form);
    if (!(await this.plans.featuresFor(holder)).webhooks) return [];
    const urls: string[] = [];
    if (typeof form.options.webhook_url === 'string' && form.options.webhook_url) urls.push(form.options.webhook_url);
    for (const g of await this.storage.webhooks.listGlobal(holder)) if (g.enabled) urls.push(g.url);
    return urls.map((url) => ({ url, user_id: holder }));
  }

  /**
   * The `response.submitted` body (docs/responses-and-webhooks.md, "Webhooks"). A file answer's `url` is a
   * signed link that opens the file without a key for `config.fileLinkTtlMs` (7 days) from the submission.
   */
  body(form: FormRecord, response: ResponseRecord, questions: Question[], payments: readonly PaymentRecord[] = []): string {
    const titles = new Map(questions.map((q) => [q.id, q.title]));
    const answers = this.links.signAnswers(response.answers, questions);
    return JSON.stringify({
      event: 'response.submitted',
      form_id: form.id,
      form_title: form.title,
      response: {
        id: response.id,
        submitted_at: response.submitted_at,
        completed_at: response.completed_at,
        answers: answers.map((a) => ({ question_id: a.question_id, question_title: titles.get(a.question_id) ?? null, value: a.value })),
        ...(response.metadata.hidden ? { hidden: response.metadata.hidden } : {}),
        // The response a Fuse question linked it to (docs/logic.md "Fuse").
        ...(response.metadata.fused_from ? { fused_from: response.metadata.fused_from } : {}),
        ...(response.metadata.fused_to ? { fused_to: response.metadata.fused_to } : {}),
        // A composite's links (docs/logic.md "Composite"): the response it came through, or the ones it stored.
        ...(response.metadata.composite ? { composite: response.metadata.composite } : {}),
        ...(response.metadata.components ? { components: response.metadata.components } : {}),
        ...(payments.length ? { payments: payments.map(presentPayment) } : {}),
      },
    });
  }

  /**
   * Records one delivery per target and its outbox item, in `tx`; returns the items, to be handed to this
   * instance's worker once the transaction committed (`started`): they are leased to it at birth when it has room.
   */
  async enqueue(tx: Storage, form: FormRecord, response: ResponseRecord, targets: WebhookTarget[], questions: Question[]): Promise<OutboxItem[]> {
    if (!targets.length) return [];
    const items: OutboxItem[] = [];
    // Read only for forms that take payments: a submission of any other form pays nothing for it.
    const payments = questions.some((q) => q.type === 'payment') ? await tx.payments.forResponses([response.id]) : [];
    const body = this.body(form, response, questions, payments);
    const now = this.clock.now().toISOString();
    // New rows only, independent of each other: sent together rather than one round trip each, so the
    // submission's write transaction is held for less time.
    const writes: Promise<unknown>[] = [];
    for (const t of targets) {
      const id = orderedId(this.ids, 'whd');
      const delivery: WebhookDelivery = {
        id,
        form_id: form.id,
        response_id: response.id,
        user_id: t.user_id,
        url: t.url,
        event: 'response.submitted',
        body,
        status: 'pending',
        attempts: 0,
        last_status_code: null,
        last_duration_ms: null,
        last_response_excerpt: null,
        last_error: null,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      };
      writes.push(tx.deliveries.insert(delivery));
      const item = this.enqueueAttempt(tx, id, now, t.url, this.births.lease('webhook'));
      // The worker gets the delivery as committed with the item it leased at birth: no read to find it again.
      writes.push(item.then((i) => items.push(i.locked_by ? { ...i, payload: { ...i.payload, [BORN_WITH]: delivery } } : i)));
    }
    await allSettledOrThrow(writes);
    return items;
  }

  /**
   * Records one delivery of another event than a submission (`booking.call_completed`: docs/booking.md;
   * `response.deleted`, of no one response: `responseId` null) per target, with its outbox item, in `tx`; the
   * worker sends them as it sends submissions (signed, retried). `event` is one the delivery log documents
   * (WEBHOOK_EVENTS): a new event is added there first, or the log's answers would break their schema.
   */
  async enqueueEvent(tx: Storage, form: FormRecord, responseId: string | null, targets: WebhookTarget[], event: (typeof WEBHOOK_EVENTS)[number], body: string): Promise<void> {
    const now = this.clock.now().toISOString();
    for (const t of targets) {
      const id = orderedId(this.ids, 'whd');
      await tx.deliveries.insert({
        id, form_id: form.id, response_id: responseId, user_id: t.user_id, url: t.url, event, body, status: 'pending', attempts: 0,
        last_status_code: null, last_duration_ms: null, last_response_excerpt: null, last_error: null, next_attempt_at: now, created_at: now, updated_at: now,
      });
      await this.enqueueAttempt(tx, id, now, t.url);
    }
  }

  /** Hands the committed items of `enqueue` to the worker that leased them; true when none is left to claim. */
  started(items: readonly OutboxItem[]): boolean {
    this.births.adopt(items);
    return items.every((i) => i.locked_by !== null);
  }

  /** An outbox item that makes a worker (re)send the delivery (to `url`) at `at`, leased to it with `lease`. */
  async enqueueAttempt(tx: Storage, deliveryId: string, at: string, url: string, lease: BirthLease | null = null): Promise<OutboxItem> {
    const item = newOutboxItem(this.ids, at, 'webhook', { delivery_id: deliveryId, url }, lease);
    await tx.outbox.enqueue(item);
    return item;
  }
}
