import { randomBytes } from 'node:crypto';
import type { IdGenerator } from './ports/id-generator';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random ids: `<prefix>_` + 20 base62 characters (~119 bits). */
export function randomIds(): IdGenerator {
  return {
    id(prefix) {
      const bytes = randomBytes(20);
      let s = '';
      for (const b of bytes) s += ALPHABET[b % 62];
      return `${prefix}_${s}`;
    },
    secret: (n) => randomBytes(n).toString('hex'),
  };
}
