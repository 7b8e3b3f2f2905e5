import { z } from 'zod';
import { paymentOut } from '../payments/payment-out';
import { confirmationCallOut } from '../booking/booking-trails';
import { int, named, pageOf, timestamp } from '../api-schemas';
import { QUIZ_MODES } from '../domain/form-fields';

/** What the responses presenters (response-presenter.ts) and services produce. */

/**
 * An answer's value, by the type of its question (answer-validation.ts checks each against its question;
 * the table in docs/responses-and-webhooks.md). Without the question at hand a value is one of these shapes.
 */
export const answerValue = named(
  'AnswerValue',
  z.union([
    z.string().describe('short_text, long_text, email, dropdown (a choice label), date (YYYY-MM-DD), multiple_choice (one choice)'),
    z.array(z.string()).describe('multiple_choice with allow_multiple: the chosen labels'),
    z.number().describe('number, rating (1 to steps), opinion_scale (min to max)'),
    z.boolean().describe('yes_no'),
    z.object({ url: z.string(), name: z.string().min(1).max(255) }).strict().describe('file_upload: a file uploaded to this form'),
    z.record(z.string(), z.union([z.string(), z.number(), z.null()])).describe('question_group, multi_question_page, contact_info, address: each sub-field by its id or name'),
    z
      .record(z.string(), z.unknown())
      .describe("composite: each component question's answer, in its own type's shape, keyed `<component form id>/<question id>` (docs/logic.md \"Composite\")"),
    z.null().describe('no answer'),
  ]),
  "The answer, in its question type's shape",
);

export const answerOut = named('Answer', z.object({ question_id: z.string(), value: answerValue }));

export const quizResultsOut = z.object({
  score: z.number(),
  correct_answers: int,
  total_scorable_questions: int,
  max_score: z.number(),
  matched_ending_id: z.string().nullable(),
  form_mode: z.enum(QUIZ_MODES),
});

const metadataOut = z.object({
  user_agent: z.string().nullable(),
  referrer: z.string().nullable(),
  hidden: z.record(z.string(), z.string()).optional(),
  composite: z
    .object({ form_id: z.string(), response_id: z.string(), question_id: z.string() })
    .optional()
    .describe('A response stored in a component form: the composite response it came through (docs/logic.md "Composite")'),
  components: z
    .array(z.object({ question_id: z.string(), form_id: z.string(), response_id: z.string() }))
    .optional()
    .describe("A composite's response: the response it stored in each component form, by composite question"),
});

const respondentShape = {
  id: z.string(),
  form_id: z.string(),
  visitor_id: z.string().nullable(),
  submitted_at: timestamp,
  completed_at: timestamp.nullable(),
  metadata: metadataOut,
  answers: z.array(answerOut),
  quiz_results: quizResultsOut.nullable(),
  version: int.nullable(),
  /** The language answered in (docs/languages.md). */
  language: z.string().nullable(),
};

/** The other response of a Fuse link (docs/logic.md "Fuse"). */
export const fuseLinkOut = named(
  'FuseLink',
  z.object({ form_id: z.string(), response_id: z.string() }).describe('The linked response and its form'),
);

/** The Response resource, as owners read it. */
export const responseOut = named(
  'Response',
  z.object({
    ...respondentShape,
    version_id: z.string().nullable(),
    fused_from: fuseLinkOut.nullable().describe("The response whose Fuse question started this one (docs/logic.md \"Fuse\"); null when none"),
    fused_to: fuseLinkOut.nullable().describe('The response this one continued in, in its Fuse form; null when none'),
    payments: z.array(paymentOut).optional().describe("The response's payments (docs/payments.md); present when it has any"),
    bookings: z
      .array(z.object({ id: z.string(), question_id: z.string(), status: z.enum(['confirmed', 'cancelled']), start: z.string(), end: z.string(), confirmation_call: confirmationCallOut.nullable() }))
      .optional()
      .describe("The response's bookings as they stand now, with their confirmation call (docs/booking.md); present when it has any"),
  }),
);

/** A response as its respondent gets it back; `resume_token` once, for a partial response just started. */
export const respondentResponseOut = named('RespondentResponse', z.object(respondentShape));

/**
 * What a submission answers: a completed response, or a partial one (`completed_at` null) with the
 * `resume_token` that only this answer carries. Two shapes, told apart by `completed_at`.
 */
export const submittedResponseOut = named(
  'SubmittedResponse',
  z.union([
    z.object({ ...respondentShape, completed_at: timestamp }).describe('A completed response'),
    z
      .object({
        ...respondentShape,
        completed_at: z.null(),
        resume_token: z.string().describe('Send it as X-Resume-Token to add answers later; given only here, once'),
      })
      .describe('A partial response, to be continued with its resume_token'),
  ]),
);

export const responseListOut = named(
  'ResponseList',
  pageOf('responses', responseOut).extend({
    next_cursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` for the next page (same filters and per_page), read by keyset at any depth; null on the last page'),
  }),
);

export const analyticsOut = named(
  'Analytics',
  z.object({
    form_id: z.string(),
    total_responses: int,
    completed_responses: int,
    completion_rate: z.number().describe('Percent, two decimals'),
    average_completion_time_seconds: int.nullable(),
    responses_by_day: z.array(z.object({ date: z.iso.date(), total: int, completed: int })),
    question_drop_off: z.array(z.object({ question_id: z.string(), reached: int, answered: int })),
  }),
);

export const bulkDeleteOut = named('BulkDeleteResult', z.object({ deleted: int }));

export const uploadOut = named(
  'Upload',
  z.object({ url: z.string().describe('The answer value for the file_upload question'), name: z.string() }),
);

/** The body of an upload: one part named `file`. */
export const uploadBodySchema = z.object({
  file: z
    .file()
    .describe(
      "The file, the body's only file part: at most the question's max_size_mb (413), its part's Content-Type one of the question's allowed_types (`image/*` covers every image type; without them the instance's list of images, PDF, text and office files; never HTML, SVG or JavaScript) (415), its file name without control characters (400). Only the declared type is checked, not the bytes: a PDF or PNG is stored as sent and served back as an attachment of that type, with `X-Content-Type-Options: nosniff`",
    ),
});

/** GET /forms/:id/analytics/funnel (funnel-service.ts). */
export const funnelOut = named(
  'Funnel',
  z.object({
    form_id: z.string(),
    version: int.nullable().describe('The version counted (null: no published version and no responses)'),
    versions: z.array(int).describe('Versions with a published snapshot or counts, newest first'),
    steps: z.array(
      z.object({
        kind: z.enum(['views', 'starts', 'question', 'completed']),
        question_id: z.string().nullable(),
        label: z.string(),
        count: int,
        drop_off: int.describe('Lost since the previous step'),
        drop_off_rate: z.number().describe('drop_off as a percent of the previous step, two decimals'),
      }),
    ),
    completion_rate: z.number().describe('Completed as a percent of views, two decimals'),
    median_completion_seconds: int.nullable().describe('Median time from the first answer to completion (within 0.5%), null without completions'),
  }),
);

export const visitOut = named('VisitRecorded', z.object({ success: z.literal(true) }));
