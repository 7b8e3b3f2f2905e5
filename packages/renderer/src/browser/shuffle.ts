/**
 * `randomize` (docs/respondents.md "Choice order"): a multiple-choice question's choices are shown in an
 * order drawn from the respondent's session seed and the question's id, so it is the same each time that
 * question is shown to that respondent (going back, a reload, a resumed response) and differs between
 * respondents. The answer is the chosen labels; it does not depend on the order shown.
 */

/** A 32-bit hash of `s` (FNV-1a). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** mulberry32: a small seeded generator of numbers in [0, 1). */
function generator(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/** A copy of `items` in the order `key` draws (Fisher-Yates): the same key, the same order. */
export function shuffled<T>(items: readonly T[], key: string): T[] {
  const out = [...items];
  const next = generator(hash(key));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A fresh random session seed. */
export function newSeed(): string {
  return crypto.getRandomValues(new Uint32Array(2)).reduce((s, n) => s + n.toString(36), '');
}
