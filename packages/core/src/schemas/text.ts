import { z } from 'zod';

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
    .max(max)
    .refine((s) => !isBlank(s), 'must not be blank');
