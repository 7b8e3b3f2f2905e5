import { z } from 'zod';
import { defineRoute, definePlugin } from '../plugins/plugin';
import { notFound } from '../errors';
import { CORE_VERSION } from '../version';
import { DataNodes, dataStepOut, testDataOut, testDataSchema } from './data-nodes';
import { EmailSteps, emailStepOut } from './email-steps';
import { FuseSteps, fuseStepOut } from './fuse-steps';

export * from './email-steps';
export * from './data-nodes';
export * from './fuse-steps';
export { mapAnswer, callSource, type DataOutcome } from './data-call';

const RESUME = [{ name: 'X-Resume-Token', description: 'The resume token of the partial response', required: true }];

/**
 * Steps the server runs when the respondent's page reaches them (docs/logic.md): email steps, data nodes, Fuse.
 * The page saves the answers so far as the partial response, then asks for the step.
 */
export const stepsArea = definePlugin({
  name: 'steps',
  version: CORE_VERSION,
  services: [EmailSteps, DataNodes, FuseSteps],
  routes: (ctx) => [
    defineRoute({
      method: 'post', path: '/public/forms/:slug/responses/:responseId/steps/:questionId', scope: 'public', operationId: 'runResponseStep', tags: ['Responses'],
      summary:
        "The respondent's page passed an email step or reached a data node or Fuse question of its partial response (X-Resume-Token): an email step queues its mail in the outbox once per response and step (a repeat answers duplicate: true and sends nothing); a data node calls its source and answers the mapped variables and hidden fields, or status failed for the node's fallback path; a Fuse question completes the response and starts its continuation in the Fuse form with the mapped hidden fields (next: its slug, response id and resume token; a repeat answers the same continuation), or answers unavailable when the Fuse form takes no responses. 409 step_not_on_path when the saved answers do not lead to the step, payment_required when a payment before it is not paid",
      headers: RESUME,
      success: { status: 200, description: 'What the step did', schema: z.union([emailStepOut, dataStepOut, fuseStepOut]) }, errors: [401, 404, 409],
      handler: async (req) => {
        const [slug, id, q, token] = [String(req.params.slug), String(req.params.responseId), String(req.params.questionId), req.headers['x-resume-token']];
        const form = await ctx.ports.storage.forms.findBySlug(slug);
        if (!form) throw notFound('Response');
        // The kind (in the version the response answers) decides the service; anything else is the services' 404.
        const response = await ctx.ports.storage.responses.findById(form.id, id);
        const version = response?.version_id ? await ctx.ports.storage.versions.findById(response.version_id) : null;
        const kind = ((version?.snapshot as { questions?: Array<{ id: string; type: string }> } | undefined)?.questions ?? []).find((x) => x.id === q)?.type;
        if (kind === 'data') return { body: await ctx.service(DataNodes).run(slug, id, token, q) };
        if (kind === 'fuse') return { body: await ctx.service(FuseSteps).run(slug, id, token, q) };
        return { body: await ctx.service(EmailSteps).run(slug, id, token, q) };
      },
    }),
    defineRoute({
      method: 'post', path: '/forms/:id/questions/:questionId/data-test', scope: 'forms', operationId: 'testDataNode', tags: ['Forms'],
      summary:
        "The builder's \"Test the call\": calls a data node's source as saved (its secret header included) with sample answers and hidden fields, and answers what the source said and what the mapping took from it; never cached. Who may edit the form; 403 data_node_requires_pro",
      body: testDataSchema,
      success: { status: 200, description: "The source's answer and the mapped values", schema: testDataOut }, errors: [400, 401, 403, 404],
      handler: async (req) => ({ body: await ctx.service(DataNodes).test(req.principal, String(req.params.id), String(req.params.questionId), req.body) }),
    }),
  ],
});
