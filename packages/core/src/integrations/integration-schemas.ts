import { z } from 'zod';
import { int, named, timestamp } from '../api-schemas';

/* The integrations API's bodies and answers (docs/integrations.md, "The API"). */

const configIn = z
  .record(z.string(), z.union([z.string().max(20000), z.boolean(), z.null()]))
  .describe("The type's settings by key (GET /integrations/types lists them); a secret left out, null or empty keeps its value");

const mappingIn = z
  .array(z.object({ question_id: z.string().min(1).max(100), name: z.string().max(200).nullable().optional() }).strict())
  .max(500)
  .nullable()
  .describe('The questions sent, in order, each under a name (default: its title); null: every question');

export const integrationCreateSchema = z
  .object({
    type: z.string().min(1).max(64),
    name: z.string().max(200).optional(),
    config: configIn.optional(),
    fields: mappingIn.optional(),
    status: z.enum(['active', 'paused']).optional(),
  })
  .strict();

export const integrationUpdateSchema = z
  .object({
    name: z.string().max(200).optional(),
    config: configIn.optional(),
    fields: mappingIn.optional(),
    status: z.enum(['active', 'paused']).optional().describe('paused: responses are not sent until it is active again'),
  })
  .strict();

export const integrationFieldOut = named(
  'IntegrationField',
  z.object({
    key: z.string(),
    label: z.string(),
    type: z.enum(['text', 'textarea', 'url', 'select', 'checkbox']),
    secret: z.boolean().describe('Write-only: stored encrypted, never answered'),
    required: z.boolean(),
    help: z.string().nullable(),
    placeholder: z.string().nullable(),
    options: z.array(z.object({ value: z.string(), label: z.string() })).nullable(),
    default: z.union([z.string(), z.boolean()]).nullable(),
  }),
);

export const integrationTypeOut = named(
  'IntegrationType',
  z.object({
    type: z.string(),
    plugin: z.string(),
    title: z.string(),
    description: z.string(),
    fields: z.array(integrationFieldOut),
    mapping: z.boolean().describe('Whether owners choose the questions sent and their names'),
    addable: z.boolean().describe('False for integrations made through the API by another service (REST Hooks)'),
  }),
);

export const integrationTypesOut = named('IntegrationTypeList', z.object({ types: z.array(integrationTypeOut) }));

export const integrationOut = named(
  'Integration',
  z.object({
    id: z.string(),
    form_id: z.string(),
    type: z.string(),
    name: z.string(),
    status: z.enum(['active', 'paused']),
    paused_reason: z.string().nullable(),
    config: z.record(z.string(), z.union([z.string(), z.boolean()])).describe('The settings that are not secret'),
    secrets_set: z.array(z.string()).describe('The secret settings that have a value (their values are never answered)'),
    fields: z.array(z.object({ question_id: z.string(), name: z.string() })).nullable(),
    available: z.boolean().describe('Whether a plugin of this instance provides its type'),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const integrationListOut = named('IntegrationList', z.object({ integrations: z.array(integrationOut) }));

export const integrationDeliveryOut = named(
  'IntegrationDelivery',
  z.object({
    id: z.string(),
    integration_id: z.string(),
    response_id: z.string().nullable(),
    event: z.enum(['response.submitted', 'integration.test']),
    status: z.enum(['pending', 'delivered', 'failed']),
    attempts: int,
    response_code: int.nullable(),
    duration_ms: int.nullable(),
    error: z.string().nullable(),
    response_excerpt: z.string().nullable().describe("The start of the receiver's answer to the last attempt (at most 500 characters)"),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  }),
);

export const integrationDeliveriesOut = named('IntegrationDeliveryList', z.object({ deliveries: z.array(integrationDeliveryOut) }));

export const integrationTestOut = named(
  'IntegrationTest',
  z.object({
    delivery_id: z.string(),
    ok: z.boolean(),
    response_code: int.nullable().describe("The receiver's HTTP status; null when none came"),
    response_excerpt: z.string().nullable().describe("The start of the receiver's answer (at most 500 characters)"),
    error: z.string().nullable(),
    duration_ms: int,
  }),
);

export const integrationRetryOut = named('IntegrationDeliveryRetry', z.object({ id: z.string(), status: z.literal('pending') }));

export const deliveriesQuery = z.object({ limit: z.coerce.number().int().min(1).max(100).default(50) });
