import { z } from 'zod';
import { documentAs } from './api-schemas';

/** Rules for strings the API stores and shows: when a text is blank, and what a style value may hold. */

/**
 * Characters that show nothing: Unicode white space, format characters (zero-width space and joiners,
 * word joiner, byte-order mark, bidi marks, soft hyphen) and the fillers that render blank (Hangul fillers,
 * braille blank). A text made only of them is blank (docs/decisions.md "Forms").
 */
const INVISIBLE = /^[\p{White_Space}\p{Cf}\u115F\u1160\u3164\uFFA0\u2800\u034F]*$/u;

/** True when `s` has nothing a reader would see. */
export const isBlank = (s: string): boolean => INVISIBLE.test(s);

/** A required text that cannot be blank, even with invisible characters only; trimmed of white space. */
export const visibleText = (max: number) =>
  z
    .string()
    .trim()
    .min(1, 'must not be blank')
    .max(max)
    .refine((s) => !isBlank(s), 'must not be blank');

/**
 * Patterns of the style fields that a form's public page writes into its `<style>` element
 * (docs/decisions.md "Theme"): anything else could end a declaration or the element itself.
 */
export const STYLE_PATTERNS = {
  /** #rgb, #rgba, #rrggbb, #rrggbbaa */
  color: /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/,
  /** a number and a unit: 24px, 1.5rem, 120%, 0 */
  size: /^(?:0|\d{1,4}(?:\.\d{1,3})?(?:px|rem|em|pt|%|vh|vw))$/,
  /** a comma-separated list of font names, bare or in matching quotes: `"Open Sans", Arial, sans-serif` */
  font: /^\s*(?:[\p{L}\p{N}][\p{L}\p{N} _-]*|"[\p{L}\p{N} _-]+"|'[\p{L}\p{N} _-]+')\s*(?:,\s*(?:[\p{L}\p{N}][\p{L}\p{N} _-]*|"[\p{L}\p{N} _-]+"|'[\p{L}\p{N} _-]+')\s*)*$/u,
} as const;

/** What free CSS must never contain: the end of the `<style>` element, or HTML comment markers around it. */
const CLOSES_STYLE = /<\/style|<!--|-->/i;

/** True when free CSS cannot leave the `<style>` element it is written into. */
export const cssStaysInStyle = (css: string): boolean => !CLOSES_STYLE.test(css);

export const hexColor = z.string().regex(STYLE_PATTERNS.color, 'must be a hex colour like #6366f1');
export const cssSize = z.string().regex(STYLE_PATTERNS.size, 'must be a CSS size like 24px, 1.5rem or 120%');
export const fontFamily = z
  .string()
  .max(200)
  .regex(STYLE_PATTERNS.font, 'must be font names (letters, digits, spaces, hyphens, quotes, commas)');
export const freeCss = (max: number) =>
  z.string().max(max).refine(cssStaysInStyle, 'must not contain </style, <!-- or -->');
const httpUrlWith = (keywords: Record<string, unknown>) =>
  documentAs(
    z
      .string()
      .max(2048)
      .refine((v) => {
        try {
          const u = new URL(v);
          return u.protocol === 'http:' || u.protocol === 'https:';
        } catch {
          return false;
        }
      }, 'must be an absolute http(s) URL'),
    { format: 'uri', ...keywords },
  );
export const httpUrl = httpUrlWith({});
/** A logo's address: checked as a URL only, since the server never loads it (the document says so). */
export const logoUrl = httpUrlWith({
  description:
    "An absolute http(s) URL of the image, at most 2048 characters. The server never fetches it or checks what it points to (PNG or any other image): respondents' browsers load it, and the form page's `img-src` allows its origin",
});
