import { AR, HE, JA, ZH } from './asian-semitic.js';
import { DE, NL, PL } from './germanic-slavic.js';
import { ES, FR, IT, PT } from './romance.js';

/**
 * Every language's words but English, for the build (scripts/bundle.mjs): each becomes a hashed JSON file
 * served beside the bundle, loaded only by the pages that speak it, so the script stays small.
 */
export const PACKS = { es: ES, fr: FR, de: DE, pt: PT, it: IT, nl: NL, pl: PL, ja: JA, zh: ZH, ar: AR, he: HE };
