import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { badRequest, forbidden, notFound } from '../errors';
import type { Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import { type IdGenerator, orderedId } from '../ports/id-generator';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { authorizeForm, planHolderOf } from '../forms/form-access';
import { paging } from '../pagination';
import { httpUrl } from '../forms/form-schemas';
import { parseBody } from '../parse';
import type { SecretBox } from '../crypto-box';
import { TOKENS } from '../tokens';
import type { FormloomEvents } from '../events';
import { WebhookDispatcher } from './webhook-dispatcher';
import { AuditService } from '../teams/audit-service';

export const formWebhookSchema = z.object({ url: httpUrl.nullable() }).strict();
export const globalWebhooksSchema = z
  .object({ webhooks: z.array(z.object({ url: httpUrl, enabled: z.boolean().default(true) }).strict()).max(5, 'at most 5 global webhooks') })
  .strict();

/** Webhook settings (Pro plan or higher), the signing secret, and the deliveries log. */
@injectable()
export class WebhookSettingsService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(WebhookDispatcher) private readonly dispatcher: WebhookDispatcher,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  private async requireWebhooks(userId: string) {
    if (!(await this.plans.featuresFor(userId)).webhooks) {
      throw forbidden('Webhooks need the Pro plan or higher', { reason: 'webhook_requires_pro', upgrade_required: true });
    }
  }

  private async formFor(principal: Principal, formId: string, action: 'read' | 'edit') {
    const form = await authorizeForm(this.storage, principal, formId, action);
    await this.requireWebhooks(await planHolderOf(this.storage, form));
    return form;
  }

  async getFormWebhook(principal: Principal, formId: string) {
    const form = await this.formFor(principal, formId, 'read');
    return { webhook_url: (form.options.webhook_url as string | null | undefined) ?? null };
  }

  /** Keeps the form's `webhook_url` field in step: this is the same field PUT /forms/:id writes. */
  async setFormWebhook(principal: Principal, formId: string, body: unknown) {
    const form = await this.formFor(principal, formId, 'edit');
    const { url } = parseBody(formWebhookSchema, body);
    if ((form.options.webhook_url ?? null) !== url) {
      await this.storage.transaction(async (tx) => {
        await tx.forms.update(formId, {
          options: { ...form.options, webhook_url: url },
          has_unpublished_changes: form.published || form.has_unpublished_changes,
          updated_at: this.clock.now().toISOString(),
        });
        if (form.team_id) await this.audit.record(tx, form.team_id, 'webhooks.changed', principal, { form_id: formId, webhook_url: url });
      });
    }
    return { webhook_url: url };
  }

  async listGlobal(principal: Principal) {
    await this.requireWebhooks(principal.user_id);
    return { webhooks: await this.storage.webhooks.listGlobal(principal.user_id) };
  }

  async replaceGlobal(principal: Principal, body: unknown) {
    await this.requireWebhooks(principal.user_id);
    const { webhooks } = parseBody(globalWebhooksSchema, body);
    await this.storage.webhooks.replaceGlobal(principal.user_id, webhooks);
    return { webhooks };
  }

  /** The account's signing secret, created on first read (64 hex chars from 32 random bytes). */
  async getSecret(principal: Principal) {
    await this.requireWebhooks(principal.user_id);
    return { secret: await this.secretOf(principal.user_id) };
  }

  async rotateSecret(principal: Principal) {
    await this.requireWebhooks(principal.user_id);
    const secret = this.ids.secret(32);
    await this.storage.webhooks.setSecret(principal.user_id, this.box.seal(secret));
    this.secretReads.delete(principal.user_id);
    return { secret };
  }

  /**
   * The plain secret that signs the account's deliveries; created when missing. Deliveries starting together
   * (a submission's webhooks) share one read in flight: it began no earlier than each of them was due.
   */
  secretOf(userId: string): Promise<string> {
    let read = this.secretReads.get(userId);
    if (!read) {
      read = this.readSecret(userId).finally(() => this.secretReads.delete(userId));
      this.secretReads.set(userId, read);
    }
    return read;
  }

  private readonly secretReads = new Map<string, Promise<string>>();

  private async readSecret(userId: string): Promise<string> {
    const stored = await this.storage.webhooks.getSecret(userId);
    if (stored) return this.box.open(stored);
    return this.box.open(await this.storage.webhooks.createSecretIfAbsent(userId, this.box.seal(this.ids.secret(32))));
  }

  async listDeliveries(principal: Principal, formId: string, query: { page?: unknown; per_page?: unknown }) {
    await this.formFor(principal, formId, 'read');
    const { page, per_page, offset } = paging(query, 50);
    const { items, total } = await this.storage.deliveries.listByForm(formId, offset, per_page);
    return {
      deliveries: items.map((d) => ({
        id: d.id,
        response_id: d.response_id,
        url: d.url,
        event: d.event,
        status: d.status,
        attempts: d.attempts,
        response_code: d.last_status_code,
        duration_ms: d.last_duration_ms,
        error: d.last_error,
        response_excerpt: d.last_response_excerpt,
        next_attempt_at: d.status === 'pending' ? d.next_attempt_at : null,
        created_at: d.created_at,
        updated_at: d.updated_at,
      })),
      total,
      page,
      per_page,
    };
  }

  /**
   * A test delivery (event `webhook.test`) to each of the form's current targets: its webhook and the
   * account's enabled global ones (docs/responses-and-webhooks.md, "Test deliveries"). Logged and retried
   * like any delivery. 400 when there is no target.
   */
  async sendTest(principal: Principal, formId: string) {
    const form = await this.formFor(principal, formId, 'edit');
    const targets = await this.dispatcher.targetsFor(form);
    if (!targets.length) throw badRequest('The form has no webhook and the account no enabled global webhook to test', { field: 'url' });
    const now = this.clock.now().toISOString();
    const body = JSON.stringify({ event: 'webhook.test', form_id: form.id, form_title: form.title, sent_at: now });
    const deliveries = targets.map((t) => ({ id: orderedId(this.ids, 'whd'), url: t.url, user_id: t.user_id }));
    await this.storage.transaction(async (tx) => {
      for (const d of deliveries) {
        await tx.deliveries.insert({
          id: d.id, form_id: form.id, response_id: null, user_id: d.user_id, url: d.url, event: 'webhook.test', body, status: 'pending',
          attempts: 0, last_status_code: null, last_duration_ms: null, last_error: null, last_response_excerpt: null, next_attempt_at: now, created_at: now, updated_at: now,
        });
        await this.dispatcher.enqueueAttempt(tx, d.id, now, d.url);
      }
    });
    this.events.emit('outbox.enqueued', { kind: 'webhook' });
    return { deliveries: deliveries.map((d) => ({ id: d.id, url: d.url, status: 'pending' as const })) };
  }

  /** Sends a delivery again now, whatever its state. */
  async retry(principal: Principal, formId: string, deliveryId: string) {
    await this.formFor(principal, formId, 'edit');
    const delivery = await this.storage.deliveries.findById(deliveryId);
    if (!delivery || delivery.form_id !== formId) throw notFound('Delivery');
    const now = this.clock.now().toISOString();
    await this.storage.transaction(async (tx) => {
      await tx.deliveries.update(deliveryId, { status: 'pending', next_attempt_at: now, updated_at: now });
      await this.dispatcher.enqueueAttempt(tx, deliveryId, now, delivery.url);
    });
    this.events.emit('outbox.enqueued', { kind: 'webhook' });
    return { id: deliveryId, status: 'pending', next_attempt_at: now };
  }
}
