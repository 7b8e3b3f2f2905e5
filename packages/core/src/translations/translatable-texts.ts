import type { Question } from '../domain/types';

/*
 * The translatable texts of a form by stable path (docs/languages.md "Paths"). Paths name questions and choices
 * by id, so reordering keeps translations; a choice without an id is named by its index. The stored answer of a
 * choice is its default-language label whatever language the respondent saw: translations change what is
 * shown, never what is stored.
 */

/** The languages a form offers besides its default one. */
export function extraLanguages(options: Record<string, unknown>): string[] {
  return Array.isArray(options.languages) ? (options.languages as string[]) : [];
}

/** Form fields whose text is translated, with the same name as their path. */
export const FORM_TEXT_FIELDS = [
  'title',
  'description',
  'welcome_title',
  'welcome_description',
  'welcome_button_text',
  'thank_you_title',
  'thank_you_description',
] as const;

/** Question properties holding one text each. */
const QUESTION_TEXT_PROPERTIES = ['placeholder', 'min_label', 'max_label', 'button_text', 'subject', 'body', 'sender_name'] as const;

/** Email steps' texts are the server's (never public); the rest reach the respondent's page. */
const PRIVATE_PROPERTIES = new Set(['subject', 'body', 'sender_name']);

export interface TranslatableText {
  path: string;
  text: string;
  /** Whether the respondent's page shows it (public snapshot); private texts are used by the server only. */
  public: boolean;
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';

/** The quiz endings that have an id (the path names it), from a form's or a snapshot's `quiz_settings`. */
function quizEndings(form: Record<string, unknown>): Array<{ id: string; title?: unknown; description?: unknown }> {
  const endings = (form.quiz_settings as { endings?: unknown } | null | undefined)?.endings;
  return Array.isArray(endings) ? endings.filter((e): e is { id: string } => !!e && typeof e === 'object' && nonEmpty((e as { id?: unknown }).id)) : [];
}

/** Every text the owner wrote that has a translation per language, in reading order. */
export function translatableTexts(form: Record<string, unknown>, questions: Question[]): TranslatableText[] {
  const out: TranslatableText[] = [];
  const add = (path: string, text: unknown, pub = true) => {
    if (nonEmpty(text)) out.push({ path, text, public: pub });
  };
  // The defaults of the button and the thank-you title are the page's own words, already in 12 languages.
  const pageDefault = (f: string) => (f === 'welcome_button_text' && form[f] === 'Start') || (f === 'thank_you_title' && form[f] === 'Thank you!');
  for (const f of FORM_TEXT_FIELDS) if (!pageDefault(f)) add(f, form[f]);
  // A quiz's endings: the thank-you screen of the one the answers matched (docs/respondents.md "Quiz endings").
  for (const e of quizEndings(form)) {
    add(`endings.${e.id}.title`, e.title);
    add(`endings.${e.id}.description`, e.description);
  }
  for (const q of questions) {
    const p = `questions.${q.id}`;
    add(`${p}.title`, q.title);
    add(`${p}.description`, q.description);
    const props = (q.properties ?? {}) as Record<string, unknown>;
    const serverRun = ['email_step', 'data', 'contract', 'fuse', 'composite'].includes(q.type);
    for (const k of QUESTION_TEXT_PROPERTIES) add(`${p}.${k}`, props[k], !serverRun && !PRIVATE_PROPERTIES.has(k));
    if (Array.isArray(props.choices)) {
      props.choices.forEach((c: unknown, i: number) => {
        const choice = (c ?? {}) as { id?: unknown; label?: unknown };
        add(`${p}.choices.${typeof choice.id === 'string' && choice.id ? choice.id : i}`, choice.label);
      });
    }
    // Error texts the owner wrote for validations (`validations.<rule>.message`).
    for (const [rule, v] of Object.entries(q.validations ?? {})) {
      if (v && typeof v === 'object') add(`${p}.validations.${rule}`, (v as { message?: unknown }).message);
    }
  }
  // The owner's own words over the page's (docs/respondents.md "Languages"): error texts and buttons.
  for (const [key, text] of Object.entries((form.strings ?? {}) as Record<string, unknown>)) add(`strings.${key}`, text);
  return out;
}

/** Per offered language, the paths without a translation (an empty object when nothing is missing). */
export function missingTranslations(form: Record<string, unknown>, questions: Question[]): Record<string, string[]> {
  const texts = translatableTexts(form, questions);
  const table = (form.translations ?? {}) as Record<string, Record<string, string> | undefined>;
  const out: Record<string, string[]> = {};
  for (const lang of extraLanguages(form)) {
    const have = table[lang] ?? {};
    const missing = texts.filter((t) => !nonEmpty(have[t.path])).map((t) => t.path);
    if (missing.length) out[lang] = missing;
  }
  return out;
}

/** The translations a respondent's page may see: public paths of the offered languages only. */
export function publicTranslations(form: Record<string, unknown>, questions: Question[]): Record<string, Record<string, string>> | null {
  const langs = extraLanguages(form);
  if (!langs.length) return null;
  const paths = new Set(translatableTexts(form, questions).filter((t) => t.public).map((t) => t.path));
  const table = (form.translations ?? {}) as Record<string, Record<string, string> | undefined>;
  const out: Record<string, Record<string, string>> = {};
  for (const lang of langs) out[lang] = Object.fromEntries(Object.entries(table[lang] ?? {}).filter(([p]) => paths.has(p)));
  return out;
}

/**
 * The translations of a composite's component (its pinned version's) that a respondent of the composite may be
 * shown: the composite's languages (`shown`, its default included) that the component offers besides its own
 * default, each reduced to the component's public texts (its title, description and questions); null when none.
 */
export function componentTranslations(
  component: { language?: unknown; languages?: unknown; translations?: unknown; title?: unknown; description?: unknown },
  questions: Question[],
  shown: readonly string[],
): Record<string, Record<string, string>> | null {
  const own = extraLanguages(component);
  const langs = shown.filter((l) => l !== component.language && own.includes(l));
  if (!langs.length) return null;
  const texts = publicTranslations({ languages: langs, translations: component.translations, title: component.title, description: component.description }, questions) ?? {};
  const out = Object.fromEntries(Object.entries(texts).filter(([, t]) => Object.keys(t).length));
  return Object.keys(out).length ? out : null;
}

/** A publish warning (not a block): the texts still missing per language, shown on the publish answer. */
export interface PublishWarning {
  reason: 'translations_missing' | 'auto_translate_failed';
  message: string;
  missing: Record<string, string[]>;
}

export function translationWarnings(form: Record<string, unknown>, questions: Question[]): PublishWarning[] {
  const missing = missingTranslations(form, questions);
  const langs = Object.keys(missing);
  if (!langs.length) return [];
  const count = langs.reduce((n, l) => n + missing[l].length, 0);
  return [
    {
      reason: 'translations_missing',
      message: `${count} text${count === 1 ? '' : 's'} without a translation (${langs.join(', ')}): respondents see the default language there`,
      missing,
    },
  ];
}

/** Translation paths follow new question ids (a client's made-up id replaced at save: forms/form-model.ts). */
export function renameTranslationPaths(options: Record<string, unknown>, ids: ReadonlyMap<string, string>): Record<string, unknown> {
  if (!ids.size) return options;
  const rename = (path: string) => {
    const m = /^questions\.([^.]+)(\..*)$/.exec(path);
    return m && ids.has(m[1]) ? `questions.${ids.get(m[1])}${m[2]}` : path;
  };
  const out = { ...options };
  const table = options.translations as Record<string, Record<string, string>> | null | undefined;
  if (table) out.translations = Object.fromEntries(Object.entries(table).map(([l, texts]) => [l, Object.fromEntries(Object.entries(texts).map(([p, v]) => [rename(p), v]))]));
  const marks = options.machine_translations as Record<string, string[]> | null | undefined;
  if (marks) out.machine_translations = Object.fromEntries(Object.entries(marks).map(([l, paths]) => [l, paths.map(rename)]));
  return out;
}

/**
 * A question's text in `language` from a version's snapshot (its translation when there is one, else as written):
 * what the server shows in the respondent's language, e.g. an email step's subject and body (docs/languages.md).
 */
export function translatedText(snapshot: Record<string, unknown>, language: string | null | undefined, path: string, written: string): string {
  if (!language || language === snapshot.language) return written;
  const text = ((snapshot.translations ?? {}) as Record<string, Record<string, string> | undefined>)[language]?.[path];
  return typeof text === 'string' && text.trim() ? text : written;
}
