import type { Translator } from '@formloom/core';
import type { Env } from './config';

/**
 * The translator for `auto_translate` (docs/languages.md, docs/configuration.md "Translation"): DeepL when
 * `FORMLOOM_DEEPL_AUTH_KEY` is set, else LibreTranslate when `FORMLOOM_LIBRETRANSLATE_URL` is (with
 * `FORMLOOM_LIBRETRANSLATE_API_KEY` when the server needs one); the adapter is loaded only then. Without either,
 * turning `auto_translate` on is refused with a 400 (`translator_not_configured`).
 */
export async function translatorFromEnv(env: Env): Promise<Translator | null> {
  const deeplKey = env.FORMLOOM_DEEPL_AUTH_KEY?.trim();
  if (deeplKey) {
    const { createDeepLTranslator } = await import('@formloom/translator-deepl');
    const serverUrl = env.FORMLOOM_DEEPL_SERVER_URL?.trim();
    return createDeepLTranslator({ authKey: deeplKey, ...(serverUrl ? { serverUrl } : {}) });
  }
  const url = env.FORMLOOM_LIBRETRANSLATE_URL?.trim();
  if (url) {
    if (!/^https?:\/\//.test(url)) throw new Error(`FORMLOOM_LIBRETRANSLATE_URL must be an http(s) URL, not "${url}"`);
    const { createLibreTranslateTranslator } = await import('@formloom/translator-libretranslate');
    return createLibreTranslateTranslator({ url, apiKey: env.FORMLOOM_LIBRETRANSLATE_API_KEY?.trim() || null });
  }
  return null;
}
