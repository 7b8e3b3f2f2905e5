'use strict';
// Word error rate of a transcript against the text that was spoken (the voice family's intelligibility
// figure): both are normalised to lower-case words, then aligned word by word with the Levenshtein distance.
// WER = (substitutions + deletions + insertions) / words of the reference; it can exceed 1.

/** Number words a recogniser writes for digits, so "3" in the text matches "three" in a transcript. */
const DIGITS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/**
 * Lower-case words of `text`: accents dropped, apostrophes kept inside words ("don't"), hyphens and every
 * other punctuation mark split words, lone digits spelled out. Empty text gives [].
 */
function normaliseWords(text) {
  return String(text)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .split(' ')
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean)
    .map((w) => (/^\d$/.test(w) ? DIGITS[Number(w)] : w));
}

/**
 * Aligns `hypothesis` to `reference` (strings, or arrays of already normalised words) by edit distance.
 * Returns { words, substitutions, deletions, insertions, errors, wer } (wer null for an empty reference).
 */
function wordErrorRate(reference, hypothesis) {
  const ref = Array.isArray(reference) ? reference : normaliseWords(reference);
  const hyp = Array.isArray(hypothesis) ? hypothesis : normaliseWords(hypothesis);
  // d[j] = { cost, s, d, i } for ref[0..i) against hyp[0..j), one row at a time.
  let prev = Array.from({ length: hyp.length + 1 }, (_, j) => ({ cost: j, s: 0, d: 0, i: j }));
  for (let i = 1; i <= ref.length; i++) {
    const row = [{ cost: i, s: 0, d: i, i: 0 }];
    for (let j = 1; j <= hyp.length; j++) {
      const same = ref[i - 1] === hyp[j - 1];
      const diag = prev[j - 1];
      const candidates = [
        { ...diag, cost: diag.cost + (same ? 0 : 1), s: diag.s + (same ? 0 : 1) },
        { ...prev[j], cost: prev[j].cost + 1, d: prev[j].d + 1 },
        { ...row[j - 1], cost: row[j - 1].cost + 1, i: row[j - 1].i + 1 },
      ];
      row.push(candidates.reduce((best, c) => (c.cost < best.cost ? c : best)));
    }
    prev = row;
  }
  const end = prev[hyp.length];
  return {
    words: ref.length,
    substitutions: end.s,
    deletions: end.d,
    insertions: end.i,
    errors: end.cost,
    wer: ref.length ? end.cost / ref.length : null,
  };
}

module.exports = { normaliseWords, wordErrorRate };
