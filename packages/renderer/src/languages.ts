/** The languages the respondent's page speaks (src/browser/i18n/), for the element and the pages router alike. */
export const PAGE_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'ja', 'zh', 'ar', 'he'] as const;

/** Those written right to left. */
export const RTL_LANGUAGES: readonly string[] = ['ar', 'he'];

/** The page's language: the form's `language` when we speak it, else the first of `preferred` we do, else English. */
export function pickLanguage(wanted: unknown, preferred: readonly string[]): string {
  const primary = (tag: unknown) => (typeof tag === 'string' ? tag.toLowerCase().split('-')[0]! : '');
  const known = (tag: string) => (PAGE_LANGUAGES as readonly string[]).includes(tag);
  if (known(primary(wanted))) return primary(wanted);
  for (const tag of preferred) if (known(primary(tag))) return primary(tag);
  return 'en';
}
