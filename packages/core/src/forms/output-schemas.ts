import { z } from 'zod';
import { respondentSettingsOutShape } from './respondent-settings';
import { int, named, pageOf, timestamp } from '../api-schemas';
import { FORM_MODES, type FormOptionField, type ThemeField } from '../domain/form-fields';
import { QUESTION_PROPERTY_SCHEMAS, QUESTION_TYPES } from './question-types';

/** What the forms presenters (presenters.ts, public-view.ts) produce, for the OpenAPI document and tests. */

const text = z.string().nullable();
const record = z.record(z.string(), z.unknown());

const questionCommon = {
  id: z.string(),
  title: z.string(),
  description: text,
  required: z.boolean(),
  order: int,
  logic_jumps: z.array(z.unknown()),
  validations: record,
};

/**
 * A question as its owners read it: one variant per type, whose `properties` are the type's own schema
 * (question-types.ts, the one that checks them on the way in), defaults filled in.
 */
export const questionOut = named(
  'Question',
  z.discriminatedUnion(
    'type',
    QUESTION_TYPES.map((type) =>
      z.object({ ...questionCommon, type: z.literal(type), properties: QUESTION_PROPERTY_SCHEMAS[type].describe(`Properties of a ${type} question`) }),
    ) as unknown as [z.ZodObject, ...z.ZodObject[]],
  ),
);

/** Every theme field with the type it reads as (a field added to THEME_FIELDS must be typed here). */
export const themeOutShape = {
  theme_color: text,
  background_color: text,
  text_color: text,
  answer_text_color: text,
  placeholder_color: text,
  button_color: text,
  button_text_color: text,
  title_color: text,
  description_color: text,
  option_text_color: text,
  indicator_bg_color: text,
  indicator_text_color: text,
  font_family: text,
  font_family_answer: text,
  font_family_button: text,
  font_family_description: text,
  font_family_option: text,
  font_family_indicator: text,
  question_font_size: text,
  corner_radius: text.describe('How round fields, choices and buttons are, a CSS size (null: 8px)'),
  custom_css: text,
  show_progress_bar: z.boolean(),
  branding_logo_url: text,
  branding_footer_text: text,
  hide_branding: z.boolean(),
  top_logo_url: text,
  top_logo_size: text,
  top_logo_alignment: z.enum(['left', 'center', 'right']).nullable(),
  top_logo_css: text,
  watermark_css: text,
  welcome_title: text,
  welcome_description: text,
  welcome_button_text: text,
  thank_you_title: text,
  thank_you_description: text,
  show_question_nav: z.boolean(),
} satisfies Record<ThemeField, z.ZodType>;

export const themeOut = named('Theme', z.object(themeOutShape));

const { show_question_nav: _themeOnly, ...formThemeOutShape } = themeOutShape;

/** Every option field of the Form resource (theme fields but `show_question_nav`, then settings). */
const formOptionOutShape = {
  ...formThemeOutShape,
  auto_translate: z.boolean(),
  mode: z.enum(FORM_MODES),
  quiz_settings: record.nullable(),
  variables: record.nullable(),
  start_logic_jumps: z.array(z.unknown()).nullable(),
  webhook_url: text,
  limit_one_response: z.boolean(),
  incremental_submission: z.boolean(),
  hidden_fields: z.array(z.string()).nullable(),
  close_at: timestamp.nullable(),
  response_limit: int.nullable(),
  redirect_url: text,
  redirect_append_response_id: z.boolean(),
  response_retention: z.object({ older_than_days: int.optional(), keep_newest: int.optional() }).nullable(),
  ...respondentSettingsOutShape,
} satisfies Record<Exclude<FormOptionField, 'show_question_nav'>, z.ZodType>;

const formShape = {
  id: z.string(),
  title: z.string(),
  description: text,
  team_id: text,
  published: z.boolean(),
  ...formOptionOutShape,
  slug: z.string(),
  created_at: timestamp,
  updated_at: timestamp,
  has_unpublished_changes: z.boolean(),
  published_version_id: text,
  response_count: int,
  questions: z.array(questionOut),
};

/** The full form (Get Form). */
export const formOut = named('Form', z.object(formShape));

export const changelogEntryOut = z.object({
  type: z.enum([
    'form_created',
    'published',
    'question_added',
    'question_updated',
    'question_deleted',
    'question_reordered',
    'theme_changed',
    'settings_changed',
    'title_changed',
    'description_changed',
    'version_restored',
  ]),
  description: z.string(),
});

export const versionOut = named(
  'Version',
  z.object({
    id: z.string(),
    form_id: z.string(),
    version: int,
    published_by: z.string(),
    published_by_name: text,
    created_at: timestamp,
    changelog: z.array(changelogEntryOut),
    snapshot: record.describe('The form as published: its fields and questions'),
  }),
);

export const versionListOut = named('VersionList', z.object({ versions: z.array(versionOut) }));

/** POST /forms/:id/publish: the form plus the version just made. */
/** A publish warning (docs/languages.md): texts without a translation, per language; the form is published. */
export const publishWarningOut = z.object({ reason: z.string(), message: z.string(), missing: z.record(z.string(), z.array(z.string())) });
export const publishedFormOut = named('PublishedForm', z.object({ ...formShape, version: versionOut, warnings: z.array(publishWarningOut).optional() }));

export const publishErrorOut = z.object({
  reason: z.string(),
  message: z.string(),
  question_ids: z.array(z.string()),
  upgrade_required: z.boolean(),
  composite_ids: z.array(z.string()).optional(),
});

/** POST /forms: the form; `version` when it was published, `publish_error` when publishing was refused. */
export const createdFormOut = named(
  'CreatedForm',
  z.object({ ...formShape, version: versionOut.optional(), publish_error: publishErrorOut.optional() }),
);

export const formListItemOut = named(
  'FormListItem',
  z.object({
    id: z.string(),
    title: z.string(),
    description: text,
    slug: z.string(),
    published: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
    theme_color: text,
    background_color: text,
    response_count: int,
    team: z.object({ id: z.string(), name: z.string() }).nullable(),
  }),
);

export const formListOut = named('FormList', pageOf('forms', formListItemOut));

/** A question as a respondent's page gets it (public-view.ts): properties filtered by type. */
export const publicQuestionOut = named(
  'PublicQuestion',
  z.object({
    id: z.string(),
    type: z.enum(QUESTION_TYPES),
    title: z.string(),
    description: text,
    required: z.boolean(),
    order: int,
    logic_jumps: z.array(z.unknown()),
    validations: record,
    properties: record,
  }),
);

/** The public snapshot: allow-listed form and theme fields (as published), questions, and `closed`. */
export const publicSnapshotOut = named(
  'PublicSnapshot',
  z.looseObject({
    id: z.string().optional(),
    slug: z.string().optional(),
    title: z.string().optional(),
    description: text.optional(),
    mode: z.enum(FORM_MODES).optional(),
    hidden_fields: z.array(z.string()).nullable().optional(),
    language: z.string().nullable().optional().describe("The page's language (a BCP 47 tag); null: the respondent's browser's"),
    strings: z.record(z.string(), z.string()).nullable().optional().describe("The owner's words over the page's own, by key"),
    spam_protection: z
      .object({ honeypot: z.boolean().optional(), proof_of_work: z.boolean().optional() })
      .nullable()
      .optional()
      .describe('What a submission must pass (docs/respondents.md "Spam protection")'),
    quiz_settings: z
      .object({
        endings: z.array(z.looseObject({ id: z.unknown().optional(), title: z.unknown().optional(), description: z.unknown().optional() })),
        allow_retake: z.boolean().optional().describe('The page offers to take the quiz again'),
      })
      .nullable(),
    questions: z.array(publicQuestionOut),
    variables: z
      .record(z.string(), z.union([z.number(), z.string()]))
      .optional()
      .describe("Start values of the variables a text recalls (`{var.name}`); the others stay private (docs/respondents.md \"Recall\")"),
    closed: z.boolean().describe('The form no longer takes responses (close_at passed or response_limit reached)'),
  }),
);

export const publicFormOut = named(
  'PublicForm',
  z.object({
    form_id: z.string(),
    slug: z.string(),
    version: int,
    published_at: timestamp,
    title: z.string(),
    description: text,
    theme: themeOut,
    snapshot: publicSnapshotOut,
  }),
);
