import test from 'ava';
import { previewText } from '../../src/voice/preview-text';

test('a preview sentence in the voice language, by primary subtag', (t) => {
  t.is(previewText('en-US'), 'Hello, this is my voice. Thank you for listening.');
  t.is(previewText('en-GB-scotland'), previewText('en'));
  t.is(previewText('de'), 'Hallo, das ist meine Stimme. Danke fürs Zuhören.');
  t.is(previewText('pt-BR'), previewText('pt'));
  t.is(previewText('zh'), '你好，这是我的声音。谢谢你的收听。');
});

test('other languages say their own name and count, never an English sentence', (t) => {
  t.is(previewText('is'), 'íslenska. 1, 2, 3, 4, 5.');
  t.is(previewText('ka'), 'ქართული. 1, 2, 3, 4, 5.');
  t.is(previewText('und-x-qdb'), '1, 2, 3, 4, 5.', 'no name known: counting alone');
  t.is(previewText('tlh'), '1, 2, 3, 4, 5.');
});
