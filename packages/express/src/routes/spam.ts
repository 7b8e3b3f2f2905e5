import { z } from 'zod';
import { param, type RouteSpec } from '../route-table';
import { SpamGuard } from '../spam-protection';

const challengeOut = z
  .object({
    challenge: z.object({
      parameters: z.looseObject({
        algorithm: z.string(),
        nonce: z.string(),
        salt: z.string(),
        cost: z.number(),
        keyLength: z.number(),
        keyPrefix: z.string(),
        expiresAt: z.number().optional(),
        data: z.record(z.string(), z.unknown()).optional(),
      }),
      signature: z.string(),
    }),
  })
  .describe('An ALTCHA proof-of-work challenge (docs/respondents.md "Spam protection")');

/** The proof-of-work challenge a form's page solves before it submits (docs/respondents.md "Spam protection"). */
export const spamRoutes: RouteSpec[] = [
  {
    method: 'get',
    path: '/public/forms/:slug/challenge',
    operationId: 'getSpamChallenge',
    summary: "A proof-of-work challenge for a form's next submission (no key; single use, bound to the form)",
    tag: 'Public',
    scope: null,
    success: { status: 200, description: '{challenge: {parameters, signature}}: find the counter, send it in `spam_check.proof`', schema: challengeOut },
    errors: [404],
    handler: async (ctx) => {
      const form = await ctx.formloom.publishing.publicForm(param(ctx, 'slug'));
      const challenge = await new SpamGuard(ctx.formloom).challenge(form.form_id);
      // Each answer is a new challenge: no cache may hand one to two respondents.
      return { status: 200, body: { challenge }, headers: { 'Cache-Control': 'no-store' } };
    },
  },
];

