'use strict';
// The voice family's word error rate (bench/lib/wer.js): normalisation and the word-level edit distance.
const test = require('ava');
const { normaliseWords, wordErrorRate } = require('../lib/wer');

test('normalisation: lower case, punctuation and hyphens split words, apostrophes inside words stay, digits spelled', (t) => {
  t.deepEqual(normaliseWords('Hello, World! Don\u2019t stop—the well-known "café" has 3 rooms.'), [
    'hello', 'world', "don't", 'stop', 'the', 'well', 'known', 'cafe', 'has', 'three', 'rooms',
  ]);
  t.deepEqual(normaliseWords("  'quoted'  ...  "), ['quoted']);
  t.deepEqual(normaliseWords(''), []);
});

test('identical texts after normalisation have no errors', (t) => {
  const w = wordErrorRate('The small village sat at the edge of a wide river.', 'the small village sat at the edge of a wide river');
  t.deepEqual(w, { words: 11, substitutions: 0, deletions: 0, insertions: 0, errors: 0, wer: 0 });
});

test('substitutions, deletions and insertions are counted by the cheapest alignment', (t) => {
  // "village sat" -> "village that" (1 sub), "the edge" -> "edge" (1 del), "wide" -> "wide wide" (1 ins)
  const w = wordErrorRate('the small village sat at the edge of a wide river', 'the small village that at edge of a wide wide river');
  t.is(w.substitutions, 1);
  t.is(w.deletions, 1);
  t.is(w.insertions, 1);
  t.is(w.errors, 3);
  t.is(w.wer, 3 / 11);
});

test('the rate is over the reference words and can exceed 1; an empty reference has none', (t) => {
  t.is(wordErrorRate('one two', '').wer, 1);
  t.is(wordErrorRate('one two', '').deletions, 2);
  const noisy = wordErrorRate('yes', 'no no no');
  t.is(noisy.errors, 3);
  t.is(noisy.wer, 3);
  t.is(wordErrorRate('', 'anything').wer, null);
  t.is(wordErrorRate('', 'anything').insertions, 1);
});

test('arrays of words are taken as already normalised', (t) => {
  t.is(wordErrorRate(['a', 'b', 'c'], ['a', 'x', 'c']).substitutions, 1);
});
