/*
 * The words an export writes for a yes/no answer (docs/responses-and-webhooks.md, "Export formats"): the
 * respondent's page shows the form's own words (`strings.yes`/`strings.no`), else its language's built-in
 * ones, else English. The page's built-in words live in the renderer (its i18n packs), which the core does
 * not import; these are the same words for the same 12 languages, and a test compares the two tables.
 */

/** The page's yes/no words by language (the renderer's i18n packs: `yes`, `no`). */
export const PAGE_YES_NO: Readonly<Record<string, { yes: string; no: string }>> = {
  en: { yes: 'Yes', no: 'No' },
  es: { yes: 'Sí', no: 'No' },
  fr: { yes: 'Oui', no: 'Non' },
  de: { yes: 'Ja', no: 'Nein' },
  pt: { yes: 'Sim', no: 'Não' },
  it: { yes: 'Sì', no: 'No' },
  nl: { yes: 'Ja', no: 'Nee' },
  pl: { yes: 'Tak', no: 'Nie' },
  ja: { yes: 'はい', no: 'いいえ' },
  zh: { yes: '是', no: '否' },
  ar: { yes: 'نعم', no: 'لا' },
  he: { yes: 'כן', no: 'לא' },
};

/**
 * A form's yes/no words as its page shows them: the owner's `strings` first, then the words of the form's
 * `language` (its primary subtag: `pt-BR` speaks `pt`), then English.
 */
export function pageYesNoWords(options: Record<string, unknown>, language?: string | null): { yes: string; no: string } {
  const strings = (options.strings ?? {}) as Record<string, unknown>;
  const builtIn = PAGE_YES_NO[String(language ?? 'en').toLowerCase().split(/[-_]/)[0]!] ?? PAGE_YES_NO.en!;
  const own = (k: 'yes' | 'no') => (typeof strings[k] === 'string' && (strings[k] as string).trim() ? (strings[k] as string) : builtIn[k]);
  return { yes: own('yes'), no: own('no') };
}

/** What a response in another language was shown: the yes/no words and, per question id, each choice's label as shown by its stored label. */
export interface AnswerWords {
  yes: string;
  no: string;
  choices: ReadonlyMap<string, ReadonlyMap<string, string>>;
}

const filled = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '';
const primaryOf = (tag: unknown) => String(tag ?? '').toLowerCase().split(/[-_]/)[0]!;

/**
 * The words of a response given in `language` (not the form's default) to the form as `snapshot` froze it
 * (its version's: `language`, `strings`, `translations`, `questions`), as the respondent's page showed them
 * (docs/languages.md): the owner's page words translated into `language`, else as the owner wrote them, else
 * the page's own words in `language`, else in the form's language, else English; a choice as its
 * translation, else as stored (the default language's label, which is what is stored).
 */
export function answerWordsIn(snapshot: Record<string, unknown>, language: string): AnswerWords {
  const table = ((snapshot.translations ?? {}) as Record<string, Record<string, unknown> | undefined>)[language] ?? {};
  const tr = (path: string) => (filled(table[path]) ? (table[path] as string) : undefined);
  const strings = (snapshot.strings ?? {}) as Record<string, unknown>;
  const builtIn = PAGE_YES_NO[primaryOf(language)] ?? PAGE_YES_NO[primaryOf(snapshot.language)] ?? PAGE_YES_NO.en!;
  // The page translates the owner's words it has (renderer's translateForm); the others are its own.
  const word = (k: 'yes' | 'no') => (filled(strings[k]) ? (tr(`strings.${k}`) ?? (strings[k] as string)) : builtIn[k]);
  const choices = new Map<string, Map<string, string>>();
  for (const q of (Array.isArray(snapshot.questions) ? snapshot.questions : []) as Array<{ id?: unknown; properties?: { choices?: unknown } }>) {
    const list = q?.properties?.choices;
    if (typeof q?.id !== 'string' || !Array.isArray(list)) continue;
    const shown = new Map<string, string>();
    list.forEach((c: { id?: unknown; label?: unknown } | null, i: number) => {
      const display = tr(`questions.${q.id}.choices.${typeof c?.id === 'string' && c.id ? c.id : i}`);
      if (display !== undefined && typeof c?.label === 'string') shown.set(c.label, display);
    });
    if (shown.size) choices.set(q.id as string, shown);
  }
  return { yes: word('yes'), no: word('no'), choices };
}
