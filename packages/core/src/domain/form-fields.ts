/** Colour fields of a form (hex strings). */
export const COLOR_FIELDS = [
  'theme_color',
  'background_color',
  'text_color',
  'answer_text_color',
  'placeholder_color',
  'button_color',
  'button_text_color',
  'title_color',
  'description_color',
  'option_text_color',
  'indicator_bg_color',
  'indicator_text_color',
] as const;

export const FONT_FIELDS = [
  'font_family',
  'font_family_answer',
  'font_family_button',
  'font_family_description',
  'font_family_option',
  'font_family_indicator',
] as const;

export const BRANDING_FIELDS = [
  'branding_logo_url',
  'branding_footer_text',
  'hide_branding',
  'top_logo_url',
  'top_logo_size',
  'top_logo_alignment',
  'top_logo_css',
  'watermark_css',
] as const;

export const WELCOME_FIELDS = [
  'welcome_title',
  'welcome_description',
  'welcome_button_text',
  'thank_you_title',
  'thank_you_description',
] as const;

/** Every field of the theme (GET/PUT `/forms/:id/theme` in the OpenAPI document). `show_question_nav` is theme-only. */
export const THEME_FIELDS = [
  ...COLOR_FIELDS,
  ...FONT_FIELDS,
  'question_font_size',
  // Not in the original API: the roundness of fields, choices and buttons (docs/decisions.md, Workspace, "Theme presets").
  'corner_radius',
  'custom_css',
  'show_progress_bar',
  ...BRANDING_FIELDS,
  ...WELCOME_FIELDS,
  'show_question_nav',
] as const;
export type ThemeField = (typeof THEME_FIELDS)[number];

/** Non-style writable settings of a form. */
export const SETTINGS_FIELDS = [
  'auto_translate',
  'mode',
  'quiz_settings',
  'variables',
  'start_logic_jumps',
  'webhook_url',
  'limit_one_response',
  'incremental_submission',
  // Respondent settings (docs/decisions.md "Form settings").
  'hidden_fields',
  'close_at',
  'response_limit',
  'redirect_url',
  'redirect_append_response_id',
  // How long responses are kept (docs/privacy.md "Retention"); applies at once, not at publish.
  'response_retention',
  // The respondent's page (docs/respondents.md "Languages", "Spam protection").
  'language',
  'strings',
  'spam_protection',
  // The form's other languages and their translations (docs/languages.md).
  'languages',
  'translations',
  'machine_translations',
] as const;

/** Writable form fields other than `title`, `description`, `team_id`, `published` and `questions`. */
export const FORM_OPTION_FIELDS = [...THEME_FIELDS, ...SETTINGS_FIELDS] as const;
export type FormOptionField = (typeof FORM_OPTION_FIELDS)[number];

/** Defaults of a new form (docs/decisions.md, "Forms"); every other optional field defaults to null. */
export const FORM_DEFAULTS: Partial<Record<FormOptionField, unknown>> = {
  theme_color: '#6366f1',
  background_color: '#0a0a0a',
  show_progress_bar: true,
  hide_branding: false,
  welcome_button_text: 'Start',
  thank_you_title: 'Thank you!',
  show_question_nav: true,
  auto_translate: false,
  mode: 'standard',
  limit_one_response: false,
  incremental_submission: false,
  redirect_append_response_id: false,
};

/** Read-only fields of a form: a client may send them back, they are ignored. */
export const FORM_READ_ONLY_FIELDS = [
  'id',
  'slug',
  'created_at',
  'updated_at',
  'has_unpublished_changes',
  'published_version_id',
  'response_count',
  'team',
  'owner_id',
  'version',
  'publish_error',
] as const;

export const QUESTION_READ_ONLY_FIELDS = ['form_id', 'created_at', 'updated_at'] as const;

export const FORM_MODES = ['standard', 'knowledge_quiz', 'lead_qualification', 'match_quiz'] as const;
/** The modes that score answers (responses' `quiz_results.form_mode`). */
export const QUIZ_MODES = ['knowledge_quiz', 'lead_qualification', 'match_quiz'] as const;
export type QuizMode = (typeof QUIZ_MODES)[number];
export type FormMode = (typeof FORM_MODES)[number];

export function defaultOptions(): Record<FormOptionField, unknown> {
  const out = {} as Record<FormOptionField, unknown>;
  for (const f of FORM_OPTION_FIELDS) out[f] = FORM_DEFAULTS[f] ?? null;
  return out;
}
