import type { PublicForm, PublicQuestion } from './types.js';

/*
 * The language a respondent reads a form in, and the form's texts in it (docs/languages.md). The form offers
 * its default `language` and its `languages`; the choice is `?lang=`, then the browser's languages, then the
 * default; the picker (element.ts) changes it. Translations change what is shown, never what is stored: a
 * choice keeps its default-language `label` (the answer's value, what logic compares) and gets a `display`.
 */

const primary = (tag: string) => tag.toLowerCase().split('-')[0]!;

/** The languages a form offers, its default first; empty when it has none. */
export function offeredLanguages(snapshot: Record<string, unknown>): string[] {
  const base = typeof snapshot.language === 'string' ? snapshot.language : null;
  const extra = Array.isArray(snapshot.languages) ? (snapshot.languages as string[]) : [];
  return base ? [base, ...extra.filter((l) => l !== base)] : [];
}

/** The offered language matching `tag` (exactly, else by its first part), or null. */
function match(offered: string[], tag: string | null | undefined): string | null {
  if (!tag) return null;
  return offered.find((l) => l.toLowerCase() === tag.toLowerCase()) ?? offered.find((l) => primary(l) === primary(tag)) ?? null;
}

/** `?lang=`, then the browser's languages, then the form's default; null for a form without languages. */
export function chooseLanguage(snapshot: Record<string, unknown>, search: string, preferred: readonly string[]): string | null {
  const offered = offeredLanguages(snapshot);
  if (!offered.length) return null;
  const asked = match(offered, new URLSearchParams(search).get('lang'));
  if (asked) return asked;
  for (const tag of preferred) {
    const m = match(offered, tag);
    if (m) return m;
  }
  return offered[0]!;
}

type Texts = Record<string, string>;

/** The form with its texts in `lang` (a copy); the default language or an untranslated text stays as written. */
export function translateForm(form: PublicForm, lang: string | null): PublicForm {
  const snap = form.snapshot;
  const texts: Texts | undefined = lang && lang !== snap.language ? (snap.translations as Record<string, Texts> | null | undefined)?.[lang] : undefined;
  const copy: PublicForm = { ...form, snapshot: { ...snap }, theme: { ...form.theme }, ...(lang ? { language: lang } : {}) };
  if (!texts) return copy;
  const tr = textsIn(texts);
  copy.title = tr('title', form.title) as string;
  copy.description = tr('description', form.description) as string | null;
  copy.snapshot.title = copy.title;
  copy.snapshot.description = copy.description;
  for (const f of ['welcome_title', 'welcome_description', 'welcome_button_text', 'thank_you_title', 'thank_you_description']) {
    if (f in copy.theme) copy.theme[f] = tr(f, copy.theme[f]);
    if (f in copy.snapshot) copy.snapshot[f] = tr(f, copy.snapshot[f]);
  }
  const strings = { ...((snap.strings as Texts | null) ?? {}) };
  for (const key of Object.keys(strings)) strings[key] = tr(`strings.${key}`, strings[key]) as string;
  copy.snapshot.strings = Object.keys(strings).length ? strings : snap.strings;
  copy.snapshot.questions = snap.questions.map((q) => translateQuestion(q, tr));
  // The quiz endings the thank-you screen shows (screens.ts): ids stay, the texts are the language's.
  const quiz = snap.quiz_settings as { endings?: Array<{ id?: string; title?: string; description?: string }> } | null | undefined;
  if (Array.isArray(quiz?.endings)) {
    const endings = quiz.endings.map((e) => (e.id ? { ...e, title: tr(`endings.${e.id}.title`, e.title) as string, description: tr(`endings.${e.id}.description`, e.description) as string } : e));
    copy.snapshot.quiz_settings = { ...quiz, endings };
  }
  return copy;
}

/** A text by path in `texts`, else the fallback (the default language's): per text, as the form's own. */
export const textsIn = (texts: Texts) => (path: string, fallback: unknown) => (typeof texts[path] === 'string' && texts[path]!.trim() ? texts[path] : fallback);

/** A question with its texts in a language (`tr` from `textsIn`); a composite's components too (composite-flow.ts). */
export function translateQuestion(q: PublicQuestion, tr: (path: string, fallback: unknown) => unknown): PublicQuestion {
  const p = `questions.${q.id}`;
  const props: Record<string, unknown> = { ...q.properties };
  for (const k of ['placeholder', 'min_label', 'max_label', 'button_text']) if (typeof props[k] === 'string') props[k] = tr(`${p}.${k}`, props[k]);
  if (Array.isArray(props.choices)) {
    props.choices = (props.choices as Array<{ id?: string; label: string }>).map((c, i) => {
      const display = tr(`${p}.choices.${c.id || i}`, null);
      return typeof display === 'string' ? { ...c, display } : c;
    });
  }
  return { ...q, title: tr(`${p}.title`, q.title) as string, description: tr(`${p}.description`, q.description) as string | null, properties: props };
}
