import { named } from '@formloom/core';
import { z } from 'zod';

/* The REST Hooks routes' bodies and answers, documented in the OpenAPI document under "REST Hooks". */

export const subscribeBody = z
  .object({
    target_url: z.url({ protocol: /^https?$/ }).max(2000).describe('Where each new response is POSTed'),
    event: z.enum(['response.submitted']).default('response.submitted'),
    name: z.string().max(200).optional().describe("A label for the form's Integrations tab (default: REST Hooks subscription)"),
  })
  .strict();

export const hookOut = named(
  'RestHook',
  z
  .object({
    id: z.string(),
    form_id: z.string(),
    event: z.literal('response.submitted'),
    status: z.enum(['active', 'paused']),
    created_at: z.string(),
  }),
);

export const hookListOut = named('RestHookList', z.object({ hooks: z.array(hookOut) }));

const answerOut = z.object({
  question_id: z.string(),
  name: z.string(),
  title: z.string(),
  type: z.string(),
  value: z.unknown(),
  text: z.string(),
  file_url: z.string().optional(),
});

/** The standard payload of docs/integrations.md: what a target receives, and what the sample answers. */
export const payloadOut = named(
  'RestHookPayload',
  z.object({
    event: z.enum(['response.submitted', 'integration.test']),
    delivery_id: z.string(),
    form_id: z.string(),
    form_title: z.string(),
    response_id: z.string(),
    submitted_at: z.string(),
    completed_at: z.string().nullable(),
    answers: z.record(z.string(), z.string()).describe('Each chosen answer in words, by its name'),
    fields: z.array(answerOut),
    hidden: z.record(z.string(), z.unknown()).optional(),
    response_url: z.string(),
    test: z.boolean().optional(),
  }),
);

export const samplesOut = named('RestHookSample', z.array(payloadOut));

export const presentHook = (i: { id: string; form_id: string; status: 'active' | 'paused'; created_at: string; config: Record<string, unknown> }) => ({
  id: i.id,
  form_id: i.form_id,
  event: 'response.submitted' as const,
  status: i.status,
  created_at: i.created_at,
});
