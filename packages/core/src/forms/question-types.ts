import { z } from 'zod';
import { visibleText } from '../strings';

const label = visibleText(500);

/** Most signers of one contract, and so the highest slot number (docs/signing.md). */
export const MAX_SIGNER_SLOTS = 20;
const choice = z
  .object({
    id: z.string().max(100).optional(),
    label,
    /** lead_qualification scoring */
    score: z.number().finite().optional(),
    /** match_quiz ending */
    ending_id: z.string().max(100).optional(),
  })
  .strict();

const text = z
  .object({
    placeholder: z.string().max(500).optional(),
    max_length: z.number().int().positive().max(100_000).optional(),
  })
  .strict();

/** Quiz scoring properties accepted on every answerable question (docs/decisions.md, "Responses and uploads"). */
const quiz = {
  correct_answer: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
  points: z.number().finite().min(0).optional(),
};

const subQuestion = z
  .object({
    id: z.string().min(1).max(100).optional(),
    type: z.enum(['short_text', 'long_text', 'email', 'number', 'date', 'phone', 'url', 'dropdown']),
    title: label,
    required: z.boolean().optional(),
  })
  .strict();

/** Properties of each question type; a type's object is strict, so unknown properties are named in the error. */
export const QUESTION_PROPERTY_SCHEMAS = {
  short_text: text.extend(quiz).strict(),
  long_text: text.extend(quiz).strict(),
  email: z.object({ placeholder: z.string().max(500).optional() }).strict(),
  number: z
    .object({ min: z.number().finite().optional(), max: z.number().finite().optional(), ...quiz })
    .strict()
    .refine((p) => p.min === undefined || p.max === undefined || p.min <= p.max, 'min must not exceed max'),
  date: z.object({ format: z.enum(['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY']).optional(), ...quiz }).strict(),
  yes_no: z.object({ ...quiz }).strict(),
  multiple_choice: z
    .object({
      choices: z.array(choice).min(1, 'needs at least one choice').max(500),
      allow_multiple: z.boolean().default(false),
      allow_other: z.boolean().optional(),
      randomize: z.boolean().optional(),
      ...quiz,
    })
    .strict(),
  dropdown: z.object({ choices: z.array(choice).min(1, 'needs at least one choice').max(5000), ...quiz }).strict(),
  rating: z
    .object({
      steps: z.number().int().min(2).max(10).default(5),
      shape: z.enum(['star', 'heart', 'thumb', 'circle', 'number']).default('star'),
      ...quiz,
    })
    .strict(),
  opinion_scale: z
    .object({
      min: z.number().int().min(0).max(1).default(0),
      max: z.number().int().min(2).max(10).default(10),
      min_label: z.string().max(200).optional(),
      max_label: z.string().max(200).optional(),
      ...quiz,
    })
    .strict(),
  file_upload: z
    .object({
      max_size_mb: z.number().positive().max(100).optional(),
      allowed_types: z.array(z.string().min(1).max(100)).max(50).optional(),
    })
    .strict(),
  question_group: z.object({ questions: z.array(subQuestion).min(1).max(50) }).strict(),
  multi_question_page: z.object({ questions: z.array(subQuestion).min(1).max(50) }).strict(),
  contact_info: z
    .object({
      fields: z
        .array(z.enum(['first_name', 'last_name', 'email', 'phone', 'company']))
        .min(1)
        .default(['first_name', 'last_name', 'email', 'phone', 'company']),
      // Sub-fields that must be filled when the question is answered (docs/respondents.md "Contact and address").
      required_fields: z.array(z.enum(['first_name', 'last_name', 'email', 'phone', 'company'])).optional(),
    })
    .strict()
    .refine((p) => !p.required_fields || p.required_fields.every((k) => (p.fields as string[]).includes(k)), 'required_fields must be among fields'),
  address: z
    .object({
      fields: z
        .array(z.enum(['address_line1', 'address_line2', 'city', 'state', 'zip', 'country']))
        .min(1)
        .default(['address_line1', 'address_line2', 'city', 'state', 'zip', 'country']),
      required_fields: z.array(z.enum(['address_line1', 'address_line2', 'city', 'state', 'zip', 'country'])).optional(),
    })
    .strict()
    .refine((p) => !p.required_fields || p.required_fields.every((k) => (p.fields as string[]).includes(k)), 'required_fields must be among fields'),
  contract: z
    .object({
      document: z.string().max(200_000).optional(),
      signer_slots: z
        .array(z.object({ slot_number: z.number().int().min(1).max(MAX_SIGNER_SLOTS), label }).strict())
        .max(MAX_SIGNER_SLOTS)
        .optional(),
      default_signing_order: z.enum(['sequential', 'any']).optional(),
    })
    .strict(),
  booking: z
    .object({
      calendar_connected: z.boolean().default(false),
      hours: z
        .array(z.object({ day: z.number().int().min(0).max(6), start: z.string(), end: z.string() }).strict())
        .optional(),
      timezone: z.string().max(100).optional(),
      durations: z.array(z.number().int().positive()).optional(),
      confirmation_call: z.boolean().optional(),
      /** The contact-info question (with a phone field) whose answer is called (docs/booking.md, "Confirmation calls"). */
      confirmation_call_question: z.string().max(100).nullable().optional(),
      /** No longer read: calls come from the instance's number (FORMLOOM_TWILIO_FROM). Kept so stored forms still load. */
      confirmation_call_number: z.string().max(40).optional(),
    })
    .strict(),
  // docs/payments.md: a fixed `amount` (in the currency's main unit, e.g. 12.5 EUR) or the value of a logic
  // variable (`amount_variable`) when the respondent reaches the step; computed by the server from stored answers.
  payment: z
    .object({
      amount: z.number().positive().max(1_000_000).optional(),
      amount_variable: z.string().min(1).max(100).regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name').optional(),
      currency: z.string().regex(/^[A-Za-z]{3}$/, 'a three-letter ISO 4217 code').optional(),
      provider: z.enum(['standard', 'connect']).default('standard'),
      description: z.string().max(500).optional(),
    })
    .strict(),
  // docs/logic.md "Data nodes": the owner's JSON source, called by the server when the respondent reaches the node.
  data: z
    .object({
      /** The source's http(s) URL. */
      source: z.string().max(2000).optional(),
      method: z.enum(['GET', 'POST']).default('GET'),
      /** Sent as the query (GET) or a JSON body (POST); values may recall earlier answers: `{answer.<id>}`. */
      params: z.record(z.string().min(1).max(100), z.string().max(2000)).optional(),
      /** A header sent with each call (e.g. `Authorization`), its value write-only: sealed at rest, never returned. */
      secret_header_name: z.string().max(100).regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'a header name').nullable().optional(),
      secret_header_value: z.string().max(4000).nullable().optional(),
      /** Read-only: whether a secret header value is stored. */
      secret_header_set: z.boolean().optional(),
      /** `var.<name>` or `hidden.<name>` -> a JSONPath into the answer (e.g. `$.plan.name`). */
      mapping: z.record(z.string().regex(/^(var|hidden)\.[A-Za-z_][A-Za-z0-9_-]{0,99}$/, 'var.<name> or hidden.<name>'), z.string().min(1).max(500)).optional(),
      timeout_ms: z.number().int().min(100).max(10_000).optional(),
      /** How long an answer is reused for the same parameters (0: never). */
      cache_seconds: z.number().int().min(0).max(86_400).optional(),
      /** A hidden field set to `ok` or `failed`: the node's jumps test it for the fallback path. */
      status_field: z.string().max(100).nullable().optional(),
    })
    .strict(),
  email_step: z
    .object({
      recipient: z.string().max(320).optional(),
      sender_name: z.string().max(200).optional(),
      subject: z.string().max(500).optional(),
      body: z.string().max(100_000).optional(),
    })
    .strict(),
  // docs/logic.md "Fuse": the respondent continues in the Fuse form (its published version, or the version
  // `session_id` pins), carrying `hidden_fields` (the Fuse form's hidden field -> a recall text) as its hidden fields.
  fuse: z
    .object({
      fuse_form_id: z.string().max(100).optional(),
      session_id: z.string().max(100).optional(),
      hidden_fields: z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,99}$/, 'a hidden field name'), z.string().max(2000)).refine((m) => Object.keys(m).length <= 50, 'at most 50 hidden fields').optional(),
    })
    .strict(),
  composite: z.object({ composite_ids: z.array(z.string().min(1).max(100)).max(50).optional() }).strict(),
} as const;

export type QuestionType = keyof typeof QUESTION_PROPERTY_SCHEMAS;
export const QUESTION_TYPES = Object.keys(QUESTION_PROPERTY_SCHEMAS) as [QuestionType, ...QuestionType[]];

/** Types whose answer is split into sub-fields (one CSV column each). */
export const GROUP_QUESTION_TYPES: readonly QuestionType[] = [
  'question_group',
  'multi_question_page',
  'contact_info',
  'address',
];
