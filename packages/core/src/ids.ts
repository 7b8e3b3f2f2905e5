import { randomBytes, randomFillSync } from 'node:crypto';
import type { IdGenerator } from './ports/id-generator';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Random ids: `<prefix>_` + 20 base62 characters (~119 bits). */
export function randomIds(): IdGenerator {
  // Random bytes are drawn a pool at a time: one call into the CSPRNG per id cost more than the rest of an
  // id's making (a submission with webhooks makes several; docs/benchmarks.md, "Webhook deliveries"). Each byte is
  // used once.
  const pool = Buffer.allocUnsafe(20 * 128);
  let used = pool.length;
  return {
    id(prefix) {
      if (used + 20 > pool.length) {
        randomFillSync(pool);
        used = 0;
      }
      let s = '';
      for (let i = used; i < used + 20; i++) s += ALPHABET[pool[i]! % 62];
      used += 20;
      return `${prefix}_${s}`;
    },
    secret: (n) => randomBytes(n).toString('hex'),
  };
}
