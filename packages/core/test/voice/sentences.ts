import test from 'ava';
import { splitSentences } from '../../src/sentences';

test('splitSentences splits on sentence ends and numbers the sentences', (t) => {
  t.deepEqual(splitSentences('Hello there. How are you?  Fine!'), [
    { text: 'Hello there.', index: 0 },
    { text: 'How are you?', index: 1 },
    { text: 'Fine!', index: 2 },
  ]);
});

test('splitSentences gives nothing for empty, blank or punctuation-only text', (t) => {
  for (const text of ['', '  \n', '...', '?!', ' . , ; ', '— …']) t.deepEqual(splitSentences(text), [], text);
});

test('splitSentences follows other scripts and accepts a language name', (t) => {
  t.deepEqual(
    splitSentences('你好。今天天气很好！', 'zh').map((s) => s.text),
    ['你好。', '今天天气很好！'],
  );
  t.deepEqual(splitSentences('Guten Tag. Wie geht es?', 'German').length, 2);
});

test('splitSentences cuts an over-long sentence at clause breaks, then spaces, then anywhere', (t) => {
  const clauses = splitSentences(`${'word '.repeat(30)}and more, ${'other '.repeat(30)}end.`, 'en', 200);
  t.true(clauses.length >= 2);
  t.true(clauses.every((s) => s.text.length <= 200));
  t.true(clauses[0]?.text.endsWith(','));
  const solid = splitSentences('あ'.repeat(1000), 'ja', 300);
  t.deepEqual(
    solid.map((s) => s.text.length),
    [300, 300, 300, 100],
  );
  t.deepEqual(
    solid.map((s) => s.index),
    [0, 1, 2, 3],
  );
  t.is(solid.map((s) => s.text).join(''), 'あ'.repeat(1000));
});
