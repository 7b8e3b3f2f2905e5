import { inject, injectable } from 'tsyringe';
import type { z } from 'zod';
import type { SecretBox } from '../crypto-box';
import type { Principal } from '../domain/types';
import { badRequest, notFound } from '../errors';
import { authorizeForm } from '../forms/form-access';
import { parseBody } from '../parse';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { IntegrationDeliveryRecord, IntegrationRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { applyConfig, checkMapping, sealSecrets, secretKeysOf, storedConfig } from './integration-config';
import { IntegrationDeliveries } from './integration-deliveries';
import { IntegrationRegistry } from './integration-registry';
import { integrationCreateSchema, integrationUpdateSchema, type integrationOut } from './integration-schemas';
import type { IntegrationPayload } from './integration-types';

/** Most integrations one form may have (REST Hooks subscriptions included). */
export const MAX_INTEGRATIONS_PER_FORM = 50;

type Input = {
  name?: string;
  config?: Record<string, unknown>;
  fields?: Array<{ question_id: string; name?: string | null }> | null;
  status?: 'active' | 'paused';
};

/**
 * A form's integrations (docs/integrations.md): those who may read the form's responses see them and their
 * logs (read-only); editors add, change, pause, test and delete them. Secrets are sealed at rest and never
 * answered. Plugins use it too (REST Hooks subscriptions): `ctx.service(IntegrationService)`.
 */
@injectable()
export class IntegrationService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(IntegrationRegistry) private readonly registry: IntegrationRegistry,
    @inject(IntegrationDeliveries) private readonly deliveries: IntegrationDeliveries,
  ) {}

  /** The integration types of this instance, with their settings forms. */
  types() {
    return {
      types: this.registry.list().map(({ plugin, definition: d }) => ({
        type: d.type,
        plugin,
        title: d.title,
        description: d.description,
        fields: d.fields.map((f) => ({
          key: f.key,
          label: f.label,
          type: f.type,
          secret: f.secret === true,
          required: f.required === true,
          help: f.help ?? null,
          placeholder: f.placeholder ?? null,
          options: f.options ? f.options.map((o) => ({ value: o.value, label: o.label })) : null,
          default: f.default ?? null,
        })),
        mapping: d.mapping !== false,
        addable: d.addable !== false,
      })),
    };
  }

  present(r: IntegrationRecord): z.infer<typeof integrationOut> {
    return {
      id: r.id,
      form_id: r.form_id,
      type: r.type,
      name: r.name,
      status: r.status,
      paused_reason: r.paused_reason,
      config: r.config,
      secrets_set: secretKeysOf(this.box, r),
      fields: r.fields,
      available: this.registry.get(r.type) !== null,
      created_at: r.created_at,
      updated_at: r.updated_at,
    };
  }

  presentDelivery(d: IntegrationDeliveryRecord) {
    return {
      id: d.id,
      integration_id: d.integration_id,
      response_id: d.response_id,
      event: d.event,
      status: d.status,
      attempts: d.attempts,
      response_code: d.last_status_code,
      duration_ms: d.last_duration_ms,
      error: d.last_error,
      response_excerpt: d.last_response_excerpt,
      next_attempt_at: d.next_attempt_at,
      created_at: d.created_at,
      updated_at: d.updated_at,
    };
  }

  async list(principal: Principal, formId: string) {
    await authorizeForm(this.storage, principal, formId, 'read');
    return { integrations: (await this.storage.integrations.listByForm(formId)).map((r) => this.present(r)) };
  }

  /** The integration, checking the caller may `action` its form; 404 when it is not this form's. */
  async load(principal: Principal, formId: string, id: string, action: 'read' | 'edit'): Promise<IntegrationRecord> {
    await authorizeForm(this.storage, principal, formId, action);
    const r = await this.storage.integrations.findById(id);
    if (!r || r.form_id !== formId) throw notFound('Integration');
    return r;
  }

  async get(principal: Principal, formId: string, id: string) {
    return this.present(await this.load(principal, formId, id, 'read'));
  }

  async create(principal: Principal, formId: string, body: unknown) {
    const input = parseBody(integrationCreateSchema, body);
    await authorizeForm(this.storage, principal, formId, 'edit');
    const reg = this.registry.get(input.type);
    if (!reg) throw badRequest(`type: no integration "${input.type}" on this instance (GET /integrations/types lists them)`, { field: 'type', reason: 'unknown_type' });
    const checked = applyConfig(reg.definition, input.config, null);
    const fields = reg.definition.mapping === false ? null : checkMapping(input.fields, await this.storage.questions.listByForm(formId));
    const now = this.clock.now().toISOString();
    const record: IntegrationRecord = {
      id: this.ids.id('int'),
      form_id: formId,
      type: reg.definition.type,
      name: input.name?.trim() || reg.definition.title,
      status: input.status ?? 'active',
      paused_reason: null,
      config: checked.config,
      secrets: sealSecrets(this.box, checked.secrets),
      fields,
      created_by: principal.user_id,
      created_at: now,
      updated_at: now,
    };
    await this.storage.transaction(async (tx) => {
      if ((await tx.integrations.listByForm(formId)).length >= MAX_INTEGRATIONS_PER_FORM) {
        throw badRequest(`A form has at most ${MAX_INTEGRATIONS_PER_FORM} integrations`, { reason: 'too_many_integrations' });
      }
      await tx.integrations.insert(record);
    });
    return this.present(record);
  }

  async update(principal: Principal, formId: string, id: string, body: unknown) {
    const input: Input = parseBody(integrationUpdateSchema, body);
    const before = await this.load(principal, formId, id, 'edit');
    const reg = this.registry.get(before.type);
    const patch: Parameters<Storage['integrations']['update']>[1] = { updated_at: this.clock.now().toISOString() };
    if (input.name !== undefined) patch.name = input.name.trim() || reg?.definition.title || before.name;
    if (input.config !== undefined) {
      if (!reg) throw badRequest(`No plugin of this instance provides "${before.type}": its settings cannot change`, { field: 'config', reason: 'unknown_type' });
      const checked = applyConfig(reg.definition, input.config, storedConfig(this.box, before));
      patch.config = checked.config;
      patch.secrets = sealSecrets(this.box, checked.secrets);
    }
    if (input.fields !== undefined) patch.fields = reg?.definition.mapping === false ? null : checkMapping(input.fields, await this.storage.questions.listByForm(formId));
    if (input.status !== undefined) {
      patch.status = input.status;
      patch.paused_reason = null;
    }
    const updated = await this.storage.integrations.update(id, patch);
    if (!updated) throw notFound('Integration');
    return this.present(updated);
  }

  async remove(principal: Principal, formId: string, id: string): Promise<void> {
    await this.load(principal, formId, id, 'edit');
    await this.storage.integrations.delete(id);
  }

  async listDeliveries(principal: Principal, formId: string, id: string, limit = 50) {
    await this.load(principal, formId, id, 'read');
    return { deliveries: (await this.storage.integrations.listDeliveries(id, limit)).map((d) => this.presentDelivery(d)) };
  }

  /**
   * "Send test": sends the form's newest completed response (or made-up answers) at once, without retries,
   * and answers what the receiver said; the test is kept in the delivery log.
   */
  async test(principal: Principal, formId: string, id: string) {
    const integration = await this.load(principal, formId, id, 'edit');
    const now = this.clock.now().toISOString();
    const delivery: IntegrationDeliveryRecord = {
      id: this.ids.id('ind'), integration_id: id, form_id: formId, response_id: null, event: 'integration.test', status: 'pending', attempts: 0,
      last_status_code: null, last_duration_ms: null, last_error: null, last_response_excerpt: null, next_attempt_at: null, created_at: now, updated_at: now,
    };
    const input = await this.deliveries.input(integration, delivery, 1);
    if (!input) throw notFound('Form');
    const outcome = await this.deliveries.attempt(integration, input);
    await this.storage.integrations.insertDelivery({ ...delivery, ...this.deliveries.patchOf(outcome, 1, null) });
    return { delivery_id: delivery.id, ok: outcome.ok, response_code: outcome.status, response_excerpt: outcome.excerpt, error: outcome.error, duration_ms: outcome.duration_ms };
  }

  /** Sends a delivery of the log again now (a failed one, or one still waiting for its next retry). */
  async retry(principal: Principal, formId: string, id: string, deliveryId: string) {
    const integration = await this.load(principal, formId, id, 'edit');
    const d = await this.storage.integrations.findDelivery(deliveryId);
    if (!d || d.integration_id !== id) throw notFound('Delivery');
    const now = this.clock.now().toISOString();
    await this.storage.transaction(async (tx) => {
      await tx.integrations.updateDelivery(d.id, { status: 'pending', next_attempt_at: now, updated_at: now });
      await this.deliveries.requeue(tx, integration, d.id, now, d.attempts);
    });
    return { id: d.id, status: 'pending' as const };
  }

  /**
   * Creates an integration for a plugin's own API (REST Hooks' subscribe): like `create`, for `type`.
   */
  async createFor(principal: Principal, formId: string, type: string, input: Input) {
    return this.create(principal, formId, { type, ...input });
  }

  /**
   * The form's newest completed responses in the standard payload shape, as `integration`'s mapping would
   * send them (REST Hooks' sample / "perform list"), or one made-up response while there is none: read access.
   */
  async samplePayloads(principal: Principal, formId: string, limit: number, integration?: IntegrationRecord): Promise<IntegrationPayload[]> {
    await authorizeForm(this.storage, principal, formId, 'read');
    const base: IntegrationRecord = integration ?? {
      id: 'int_sample', form_id: formId, type: 'sample', name: 'sample', status: 'active', paused_reason: null, config: {}, secrets: null, fields: null,
      created_by: principal.user_id, created_at: '', updated_at: '',
    };
    const out: IntegrationPayload[] = [];
    for (const r of await this.deliveries.latest(formId, limit)) {
      const input = await this.deliveries.input(base, { id: `sample_${r.id}`, event: 'response.submitted', response_id: r.id }, 1);
      if (input) out.push(input.payload);
    }
    // No response yet: one made-up response (`test: true`), so the other service can show the fields to map.
    if (!out.length && limit > 0) {
      const example = await this.deliveries.input(base, { id: 'sample_example', event: 'integration.test', response_id: null }, 1);
      if (example) out.push(example.payload);
    }
    return out;
  }
}
