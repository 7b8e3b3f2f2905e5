import { z } from 'zod';
import { respondentSettingsShape } from './respondent-settings';
import { COLOR_FIELDS, FONT_FIELDS, FORM_MODES } from '../domain/form-fields';
import { QUESTION_PROPERTY_SCHEMAS, QUESTION_TYPES } from './question-types';
import { present, typeMessage } from '../parse';
import { documentAs } from '../api-schemas';
import { jumpDoc } from './logic-doc';
import { cssSize, fontFamily, freeCss, hexColor, httpUrl, logoUrl, visibleText } from '../strings';

export { hexColor };

const nullableHex = hexColor.nullable();
const shortText = (max = 500) => z.string().max(max).nullable();

const colorShape = Object.fromEntries(COLOR_FIELDS.map((f) => [f, nullableHex.optional()])) as Record<
  (typeof COLOR_FIELDS)[number],
  z.ZodOptional<typeof nullableHex>
>;
const fontShape = Object.fromEntries(FONT_FIELDS.map((f) => [f, fontFamily.nullable().optional()])) as Record<
  (typeof FONT_FIELDS)[number],
  z.ZodOptional<z.ZodNullable<z.ZodString>>
>;

/** The theme fields (GET/PUT `/forms/:id/theme`), each optional. */
export const themeShape = {
  ...colorShape,
  ...fontShape,
  question_font_size: cssSize.nullable().optional(),
  corner_radius: cssSize.nullable().optional().describe('How round fields, choices and buttons are, a CSS size (default 8px)'),
  custom_css: freeCss(100_000).nullable().optional(),
  show_progress_bar: z.boolean().optional(),
  branding_logo_url: logoUrl.nullable().optional(),
  branding_footer_text: shortText(1000).optional(),
  hide_branding: z.boolean().optional(),
  top_logo_url: logoUrl.nullable().optional(),
  top_logo_size: cssSize.nullable().optional(),
  top_logo_alignment: z.enum(['left', 'center', 'right']).nullable().optional(),
  top_logo_css: freeCss(20_000).nullable().optional(),
  watermark_css: freeCss(20_000).nullable().optional(),
  welcome_title: shortText(1000).optional(),
  welcome_description: shortText(10_000).optional(),
  welcome_button_text: shortText(100).optional(),
  thank_you_title: shortText(1000).optional(),
  thank_you_description: shortText(10_000).optional(),
  show_question_nav: z.boolean().optional(),
};

export const themeInputSchema = z.object(themeShape).strict();
export type ThemeInput = z.infer<typeof themeInputSchema>;

const ignored = z.unknown().optional();

/** A question as a client sends it; read-only fields it may send back are accepted and dropped. */
const questionBase = z
  .object({
    id: z.string().min(1).max(100).optional(),
    type: z.enum(QUESTION_TYPES),
    title: visibleText(2000),
    description: z.string().max(20_000).nullable().optional(),
    required: z.boolean().optional(),
    order: z.number().int().min(0).optional(),
    properties: z.record(z.string(), z.unknown()).optional(),
    logic_jumps: documentAs(z.array(z.unknown()).max(200), z.array(jumpDoc).max(200)).optional(),
    validations: z.record(z.string(), z.unknown()).optional(),
    form_id: ignored,
    created_at: ignored,
    updated_at: ignored,
  })
  .strict();

/**
 * The same question as the OpenAPI document shows it: one variant per type, its `properties` the very
 * schema that `questionInputSchema` checks them with (the check stays one step, so its messages name
 * each unknown property).
 */
const questionByType = z.discriminatedUnion(
  'type',
  QUESTION_TYPES.map((type) => {
    // `properties` may be left out only where the type needs none of them (a group needs its questions).
    const props = QUESTION_PROPERTY_SCHEMAS[type];
    return questionBase.extend({ type: z.literal(type), properties: props.safeParse({}).success ? props.optional() : props });
  }) as unknown as [
    z.ZodObject,
    ...z.ZodObject[],
  ],
);

export const questionInputSchema = documentAs(
  questionBase
  .transform((q, ctx) => {
    const parsed = QUESTION_PROPERTY_SCHEMAS[q.type].safeParse(q.properties ?? {}, { reportInput: true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const path = ['properties', ...issue.path];
        if (issue.code === 'unrecognized_keys') {
          for (const key of issue.keys) ctx.addIssue({ code: 'custom', message: 'unknown property', path: [...path, key] });
        } else {
          const message = issue.code === 'invalid_type' ? typeMessage(issue.expected, issue.input, present(q.properties, issue.path)) : issue.message;
          ctx.addIssue({ code: 'custom', message, path });
        }
      }
      return z.NEVER;
    }
    return {
      id: q.id,
      type: q.type,
      title: q.title,
      description: q.description ?? null,
      required: q.required ?? false,
      properties: parsed.data as Record<string, unknown>,
      logic_jumps: q.logic_jumps ?? [],
      validations: q.validations ?? {},
    };
  }),
  questionByType,
);
export type QuestionInput = z.output<typeof questionInputSchema>;

const questionsSchema = z
  .array(questionInputSchema)
  .max(500)
  .superRefine((qs, ctx) => {
    const seen = new Set<string>();
    qs.forEach((q, i) => {
      if (!q.id) return;
      if (seen.has(q.id)) ctx.addIssue({ code: 'custom', message: `duplicate question id ${q.id}`, path: [i, 'id'] });
      seen.add(q.id);
    });
  });

/** Names of hidden fields: safe as URL query keys and CSV headers. */
export const HIDDEN_FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/** Writable fields other than title/team_id (shared by create and update). */
const { show_question_nav: _themeOnly, ...formThemeShape } = themeShape;
const formShape = {
  description: z.string().max(20_000).nullable().optional(),
  published: z.boolean().optional(),
  ...formThemeShape,
  auto_translate: z.boolean().optional(),
  mode: z.enum(FORM_MODES).optional(),
  quiz_settings: z.record(z.string(), z.unknown()).nullable().optional(),
  variables: z.record(z.string(), z.unknown()).nullable().optional(),
  start_logic_jumps: documentAs(z.array(z.unknown()).max(200), z.array(jumpDoc).max(200)).nullable().optional(),
  webhook_url: httpUrl.nullable().optional(),
  limit_one_response: z.boolean().optional(),
  incremental_submission: z.boolean().optional(),
  hidden_fields: z
    .array(z.string().regex(HIDDEN_FIELD_NAME, 'a hidden field name is letters, digits, _ and - (at most 64, not starting with - or a digit)'))
    .max(20)
    .refine((names) => new Set(names).size === names.length, 'repeats a name')
    .meta({ uniqueItems: true })
    .nullable()
    .optional(),
  close_at: z.iso.datetime({ offset: true }).nullable().optional(),
  response_limit: z.number().int().positive().max(100_000_000).nullable().optional(),
  redirect_url: httpUrl.nullable().optional(),
  redirect_append_response_id: z.boolean().optional(),
  response_retention: z
    .object({
      older_than_days: z.number().int().min(1).max(36_500).optional().describe('Delete responses submitted more than this many days ago'),
      keep_newest: z.number().int().min(1).max(100_000_000).optional().describe('Keep only this many of the newest responses'),
    })
    .strict()
    .nullable()
    .optional()
    .describe('Deletes older responses and their files every hour, whatever the version (docs/privacy.md "Retention"); null or {}: keep them all'),
  ...respondentSettingsShape,
  questions: questionsSchema.optional(),
};

const title = visibleText(500);

export const createFormSchema = z
  .object({ title, team_id: z.string().min(1).max(100).nullable().optional(), ...formShape })
  .strict();
export type CreateFormInput = z.output<typeof createFormSchema>;

/** `team_id` is accepted only when it repeats the form's current team (a read-back); the service checks. */
export const updateFormSchema = z
  .object({ title: title.optional(), team_id: z.string().nullable().optional(), ...formShape })
  .strict();
export type UpdateFormInput = z.output<typeof updateFormSchema>;

export { httpUrl };
