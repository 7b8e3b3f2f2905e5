import { badRequest } from '../errors';
import { extraLanguages } from './translatable-texts';

/**
 * The language a response records (docs/languages.md "Responses"): the one the page sent when the form offers
 * it (its default `language` or one of `languages`); a form without languages records what the page sent only
 * when it is its default. 400 for a language the form does not offer, so results never filter by a stray tag.
 */
export function responseLanguage(snapshot: Record<string, unknown>, sent: string | undefined): string | null {
  const base = typeof snapshot.language === 'string' ? snapshot.language : null;
  if (sent === undefined) return base;
  const offered = [...(base ? [base] : []), ...extraLanguages(snapshot)];
  if (offered.includes(sent)) return sent;
  if (!offered.length) return null;
  throw badRequest(`language: the form is offered in ${offered.join(', ')}`, { field: 'language', reason: 'language_not_offered' });
}
