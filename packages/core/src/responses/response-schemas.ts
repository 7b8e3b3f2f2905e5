import { z } from 'zod';
import { documentAs } from '../api-schemas';
import { answerValue } from './output-schemas';

const isoDateTime = z.iso.datetime({ offset: true });

/** `value` is checked against its question by answer-validation.ts; the document shows the shapes it accepts. */
const answer = z.object({ question_id: z.string().min(1).max(100), value: documentAs(z.unknown(), answerValue) }).strict();

/** POST /public/forms/:slug/responses (docs/responses-and-webhooks.md, "Respondents"). */
export const submitResponseSchema = z
  .object({
    answers: z.array(answer).max(1000),
    visitor_id: z.string().min(1).max(200).optional(),
    completed: z.boolean().optional(),
    started_at: isoDateTime.optional(),
    metadata: z.object({ referrer: z.string().max(2048).nullable().optional() }).strict().optional(),
    /** Values of the form's declared hidden fields (docs/decisions.md "Form settings"). */
    hidden: z.record(z.string().max(64), z.string().max(1000)).optional(),
    /** The language the page was shown in: the form's default or one of its `languages` (docs/languages.md). */
    language: z.string().min(2).max(35).optional().describe("The language the respondent answered in: the form's `language` or one of its `languages`"),
    /** What the page adds for the form's `spam_protection` (docs/respondents.md "Spam protection"); never stored. */
    spam_check: z
      .object({
        honeypot: z.string().max(1000).optional().describe('The value of the field people never see: empty'),
        proof: z.string().max(8000).optional().describe('base64 of JSON {challenge, solution}: the solved challenge of GET .../challenge'),
      })
      .strict()
      .optional(),
  })
  .strict();
export type SubmitResponseInput = z.output<typeof submitResponseSchema>;

/** PATCH /public/forms/:slug/responses/:responseId. */
export const patchResponseSchema = z
  .object({ answers: z.array(answer).max(1000).optional(), completed: z.boolean().optional() })
  .strict();

/** POST /forms/:id/responses/bulk-delete. */
export const bulkDeleteSchema = z.object({ response_ids: z.array(z.string().min(1).max(100)).min(1).max(100, 'at most 100 ids') }).strict();

/** POST /public/forms/:slug/visits: what the respondent's page reports for the funnel (docs/responses-and-webhooks.md, "Funnel"). */
export const visitSchema = z
  .object({ event: z.enum(['view', 'start']).describe('view: the page was shown; start: the first answer was given') })
  .strict();
