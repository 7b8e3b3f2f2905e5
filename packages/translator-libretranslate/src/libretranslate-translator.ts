import { TranslatorError, type Translator } from '@formloom/core';

/*
 * The translator port on LibreTranslate (docs/languages.md "auto_translate"; docs/configuration.md
 * "Translation"): its HTTP API, `POST /translate` with `q` as a list of texts, one call per language pair.
 * LibreTranslate names languages by their first part (`de`, `ar`), so a regional tag is sent as its language.
 */

export interface LibreTranslateOptions {
  /** The server's base URL, e.g. `https://libretranslate.example.com` (FORMLOOM_LIBRETRANSLATE_URL). */
  url: string;
  /** The server's API key, when it requires one (FORMLOOM_LIBRETRANSLATE_API_KEY). */
  apiKey?: string | null;
  /** Time-out of one call in milliseconds (default 30 s). */
  timeoutMs?: number;
  /** The fetch to use (tests, proxies); default the global one. */
  fetch?: typeof fetch;
}

const language = (tag: string) => tag.toLowerCase().split('-')[0]!;

export function createLibreTranslateTranslator(options: LibreTranslateOptions): Translator {
  const endpoint = `${options.url.replace(/\/+$/, '')}/translate`;
  const doFetch = options.fetch ?? fetch;
  return {
    id: 'libretranslate',
    async translate(texts, from, to) {
      if (!texts.length) return [];
      let res: Response;
      try {
        res = await doFetch(endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ q: texts, source: language(from), target: language(to), format: 'text', ...(options.apiKey ? { api_key: options.apiKey } : {}) }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
        });
      } catch (e) {
        throw new TranslatorError(`LibreTranslate could not be reached: ${(e as Error).message}`, 0, 'unreachable');
      }
      const body = (await res.json().catch(() => null)) as { translatedText?: unknown; error?: unknown } | null;
      if (!res.ok) {
        const why = typeof body?.error === 'string' ? body.error : res.statusText;
        throw new TranslatorError(`LibreTranslate refused the translation (${res.status}): ${why}`, res.status);
      }
      const out = body?.translatedText;
      const list = Array.isArray(out) ? out : typeof out === 'string' && texts.length === 1 ? [out] : null;
      if (!list || list.length !== texts.length || !list.every((x) => typeof x === 'string')) {
        throw new TranslatorError('LibreTranslate answered something other than the texts asked for', 502, 'bad_answer');
      }
      return list as string[];
    },
  };
}
