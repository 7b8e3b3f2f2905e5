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
