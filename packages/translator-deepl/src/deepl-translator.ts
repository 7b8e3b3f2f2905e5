import * as deepl from 'deepl-node';
import { TranslatorError, type Translator } from '@formloom/core';

/*
 * The translator port on DeepL with its official SDK, deepl-node (docs/languages.md "auto_translate";
 * docs/configuration.md "Translation"). DeepL's source languages have no region (`en`), and English and
 * Portuguese targets need one: `en` is sent as `en-US` and `pt` as `pt-PT` unless the form names the region.
 */

export interface DeepLOptions {
  /** The DeepL API key (FORMLOOM_DEEPL_AUTH_KEY); a key ending in `:fx` uses the free API. */
  authKey: string;
  /** Another server than DeepL's (tests point it at a local one). */
  serverUrl?: string;
  /** Retries of a failed call (default 2; deepl-node backs off between them). */
  maxRetries?: number;
}

const primary = (tag: string) => tag.toLowerCase().split('-')[0]!;

function targetOf(tag: string): deepl.TargetLanguageCode {
  const [lang, region] = tag.split('-');
  if (region) return `${lang!.toLowerCase()}-${region.toUpperCase()}` as deepl.TargetLanguageCode;
  if (lang === 'en') return 'en-US';
  if (lang === 'pt') return 'pt-PT';
  return lang!.toLowerCase() as deepl.TargetLanguageCode;
}

/** deepl-node's errors as TranslatorError with the HTTP status they stand for. */
function statusOf(e: unknown): number {
  if (e instanceof deepl.AuthorizationError) return 403;
  if (e instanceof deepl.QuotaExceededError) return 456;
  if (e instanceof deepl.TooManyRequestsError) return 429;
  if (e instanceof deepl.ConnectionError) return 0;
  return 502;
}

export function createDeepLTranslator(options: DeepLOptions): Translator {
  const client = new deepl.Translator(options.authKey, {
    ...(options.serverUrl ? { serverUrl: options.serverUrl } : {}),
    maxRetries: options.maxRetries ?? 2,
    sendPlatformInfo: false,
  });
  return {
    id: 'deepl',
    async translate(texts, from, to) {
      if (!texts.length) return [];
      try {
        const results = await client.translateText([...texts], primary(from) as deepl.SourceLanguageCode, targetOf(to));
        return results.map((r) => r.text);
      } catch (e) {
        throw new TranslatorError(`DeepL refused the translation: ${(e as Error).message}`, statusOf(e));
      }
    },
  };
}
