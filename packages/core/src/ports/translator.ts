/**
 * Translator (docs/languages.md "auto_translate"): translates a form's texts from its default language into
 * another, many texts per call. None until configured: `@formloom/translator-deepl` or
 * `@formloom/translator-libretranslate`. Conformance suite: `translatorConformance` in `@formloom/core/testing`.
 */

/** A refusal or failure of the translation service; its message is safe to show the owner. */
export class TranslatorError extends Error {
  override readonly name = 'TranslatorError';
  /** `status`: the service's HTTP status (0 when it could not be reached). */
  constructor(message: string, readonly status: number, readonly code: string | null = null) {
    super(message);
  }
}

export interface Translator {
  /** The service's name, e.g. `deepl`; `none` when no translator is configured. */
  readonly id: string;
  /**
   * `texts` translated from `from` into `to` (BCP 47 tags such as `en`, `pt-BR`), in the same order and number.
   * An empty list answers an empty list without calling the service. Recall placeholders (`{respondent.email}`)
   * are the caller's to protect. Throws TranslatorError when the service refuses or cannot be reached.
   */
  translate(texts: readonly string[], from: string, to: string): Promise<string[]>;
}

/** The instance's translator until one is configured: every call refuses. */
export const noTranslator = (): Translator => ({
  id: 'none',
  translate: async () => {
    throw new TranslatorError('No translator is configured on this server (docs/languages.md)', 409, 'not_configured');
  },
});
