import type { Strings } from './en.js';

/**
 * The words of `lang` (null for English, which is built in): from the `/f/` page, which carries them beside
 * the form, else fetched from the language's file beside the bundle (cached immutable). A failure leaves the
 * page in English rather than without a form.
 */
export async function loadWords(el: HTMLElement, lang: string, mountUrl: string): Promise<Strings | null> {
  if (lang === 'en') return null;
  const inline = el.querySelector(`script[type="application/json"][data-formloom-strings="${lang}"]`);
  if (inline?.textContent) {
    try {
      return JSON.parse(inline.textContent) as Strings;
    } catch {
      // A broken block: fetch the file instead.
    }
  }
  const file = typeof FORMLOOM_LANGUAGE_FILES === 'undefined' ? undefined : FORMLOOM_LANGUAGE_FILES[lang];
  if (!file) return null;
  try {
    const res = await fetch(`${mountUrl.replace(/\/+$/, '')}/formloom/assets/${file}`, { credentials: 'omit' });
    return res.ok ? ((await res.json()) as Strings) : null;
  } catch {
    return null;
  }
}
