import { defineIntegration, defineRoute, IntegrationService, notFound, type FormloomPlugin, type Principal } from '@formloom/core';
import { z } from 'zod';
import { hookListOut, hookOut, presentHook, samplesOut, subscribeBody } from './schemas';

export { hookOut, hookListOut, samplesOut, subscribeBody } from './schemas';

/*
 * REST Hooks (docs/integrations.md, "Zapier, Make, n8n"): the pattern Zapier, Make and n8n use for instant
 * triggers. The other service subscribes a target URL to a form's new responses with the owner's API key,
 * unsubscribes it when the Zap or workflow is turned off, and reads a sample of recent responses to show the
 * fields to map. A subscription is an integration of the type `rest-hooks`: its deliveries go through the
 * outbox with retries and appear in the form's Integrations tab with their log; a target that answers 410
 * Gone is unsubscribed (Zapier's rule).
 */

export const REST_HOOKS_TYPE = 'rest-hooks';
export const REST_HOOK_EVENTS = ['response.submitted'] as const;

const restHooks = defineIntegration({
  type: REST_HOOKS_TYPE,
  title: 'Zapier, Make, n8n',
  description: 'Sends each new response to an automation made in Zapier, Make or n8n. They connect themselves with an API key: turn the Zap, scenario or workflow on there.',
  // Made by the other service through the API (POST /forms/:id/hooks), not from the tab.
  addable: false,
  // Every attempt of a delivery carries its id (X-Formloom-Delivery): receivers de-duplicate on it.
  deduplicates: true,
  fields: [
    { key: 'target_url', label: 'Target URL', type: 'url', secret: true, required: true, help: 'The address the automation gave when it subscribed.' },
    { key: 'event', label: 'Event', type: 'select', options: [{ value: 'response.submitted', label: 'A response is submitted' }], default: 'response.submitted' },
  ],
  destination: (_config, secrets) => {
    try {
      return `rest-hooks:${new URL(secrets.target_url ?? '').host}`;
    } catch {
      return null;
    }
  },
  async deliver(d, ctx) {
    const answer = await ctx.http.postJson(d.secrets.target_url!, d.payload, { 'x-formloom-delivery': d.id, 'x-formloom-event': d.event });
    // 410 Gone: the subscriber is gone for good (a deleted Zap); the subscription goes with it.
    if (answer.status === 410) return { status: 410, body: answer.body, ok: false, retry: false, remove: true, error: 'HTTP 410: the subscriber is gone; unsubscribed' };
    return { status: answer.status, body: answer.body };
  },
});

const formParams = (req: { principal: Principal; params: Record<string, string> }) => ({ principal: req.principal, formId: String(req.params.id) });

/** The REST Hooks plugin: `plugins: [restHooksPlugin()]` (the self-hosted app registers it by default). */
export function restHooksPlugin(): FormloomPlugin {
  return {
    name: 'rest-hooks',
    version: '0.1.0',
    integrations: [restHooks],
    routes: (ctx) => {
      const svc = () => ctx.service(IntegrationService);
      const tags = ['REST Hooks'];
      const one = async (principal: Principal, formId: string, hookId: string) => {
        const r = await svc().get(principal, formId, hookId);
        if (r.type !== REST_HOOKS_TYPE) throw notFound('Subscription');
        return r;
      };
      return [
        defineRoute({
          method: 'post', path: '/forms/:id/hooks', scope: 'forms', operationId: 'subscribeRestHook', tags,
          summary: "Subscribes a target URL to the form's new responses (REST Hooks, as Zapier, Make and n8n do); editors of the form. Each completed response is then POSTed to it as JSON (the sample's shape); a 410 answer unsubscribes it",
          body: subscribeBody,
          success: { status: 201, description: 'The subscription', schema: hookOut }, errors: [400, 401, 403, 404],
          handler: async (req) => {
            const { principal, formId } = formParams(req);
            const created = await svc().createFor(principal, formId, REST_HOOKS_TYPE, { name: req.body.name ?? 'REST Hooks subscription', config: { target_url: req.body.target_url, event: req.body.event } });
            return { status: 201, body: presentHook(created) };
          },
        }),
        defineRoute({
          method: 'get', path: '/forms/:id/hooks', scope: 'forms', operationId: 'listRestHooks', tags,
          summary: "The form's REST Hooks subscriptions (their target URLs are secret and not shown)",
          success: { status: 200, description: '{hooks}', schema: hookListOut }, errors: [401, 403, 404],
          handler: async (req) => {
            const { principal, formId } = formParams(req);
            const all = (await svc().list(principal, formId)).integrations.filter((i) => i.type === REST_HOOKS_TYPE);
            return { body: { hooks: all.map(presentHook) } };
          },
        }),
        defineRoute({
          method: 'get', path: '/forms/:id/hooks/sample', scope: 'forms', operationId: 'sampleRestHook', tags,
          summary: "The form's newest completed responses exactly as a delivery carries them, newest first (Zapier's \"perform list\"); one made-up response (`test: true`) while there is none",
          query: z.object({ limit: z.coerce.number().int().min(1).max(25).default(3) }),
          success: { status: 200, description: 'An array of payloads', schema: samplesOut }, errors: [400, 401, 403, 404],
          handler: async (req) => {
            const { principal, formId } = formParams(req);
            return { body: await svc().samplePayloads(principal, formId, req.query.limit) };
          },
        }),
        defineRoute({
          method: 'get', path: '/forms/:id/hooks/:hookId', scope: 'forms', operationId: 'getRestHook', tags,
          summary: 'One subscription (404 once unsubscribed, also by a 410 from its target)',
          success: { status: 200, description: 'The subscription', schema: hookOut }, errors: [401, 403, 404],
          handler: async (req) => {
            const { principal, formId } = formParams(req);
            return { body: presentHook(await one(principal, formId, String(req.params.hookId))) };
          },
        }),
        defineRoute({
          method: 'delete', path: '/forms/:id/hooks/:hookId', scope: 'forms', operationId: 'unsubscribeRestHook', tags,
          summary: 'Unsubscribes (editors of the form): no more deliveries; its log goes with it',
          success: { status: 200, description: '{success: true}', schema: z.object({ success: z.literal(true) }) }, errors: [401, 403, 404],
          handler: async (req) => {
            const { principal, formId } = formParams(req);
            await one(principal, formId, String(req.params.hookId));
            await svc().remove(principal, formId, String(req.params.hookId));
            return { body: { success: true as const } };
          },
        }),
      ];
    },
  };
}
