'use strict';
// Texts the voice family speaks: plain English prose (common words, no names, numbers or abbreviations, so
// a word error rate measures the voice rather than the recogniser's vocabulary), and longer texts built
// from it at a given length.

/** Paragraphs of plain prose for the intelligibility figure (pocketsphinx transcribes each). */
const PROSE = [
  'The small village sat at the edge of a wide river. Every morning the farmers walked to their fields ' +
    'before the sun was high. Children played near the water while their parents worked, and the old ' +
    'men sat in the shade and talked about the weather.',
  'When you write a letter to a friend, try to use simple words and short sentences. Read it again the ' +
    'next day before you send it. You will often find that a few lines can go, and that the letter is ' +
    'better without them.',
  'Our team will call you this week to talk about your order. Please keep your phone close and answer ' +
    'if you can. If we do not reach you, we will send an email with a link where you can choose a better ' +
    'time for the call.',
];

/**
 * More paragraphs of the same kind, for the intelligibility figure only (the speed figures keep PROSE): 136
 * words put one word at 0.7% of the rate, too coarse for a bar at 10%, so that figure reads all six.
 */
const PROSE_MORE = [
  'The kitchen was warm and smelled of fresh bread. My mother stood by the window and cut the loaf into ' +
    'thick slices. We ate them with butter and honey, and nobody said a word until the plate was empty.',
  'If the weather stays dry this weekend, we plan to paint the fence behind the house. It will take most ' +
    'of the day, so we will start early and stop for lunch under the big tree near the gate.',
  'Please fill in the form below and tell us what you thought of our service. Your answers help us learn ' +
    'what works and what does not. It only takes a few minutes, and every answer is read by a person.',
];

/** The plain prose of the intelligibility figure: `quality.wer` of every voice is measured on it. */
const INTELLIGIBILITY_PROSE = [...PROSE, ...PROSE_MORE];

/** A short answer of a voice assistant: the stream's first-audio figure speaks it (first sentence short). */
const STREAM_TEXT =
  'Thank you for calling. Your order has left our store and should reach you on Thursday. ' +
  'Is there anything else I can help you with today?';

/** Whole sentences of the prose, repeated, up to `characters` (the last sentence that fits ends it). */
function proseOf(characters) {
  const all = PROSE.join(' ');
  let text = '';
  while (text.length < characters) text += (text ? ' ' : '') + all;
  const cut = text.lastIndexOf('.', characters - 1);
  return text.slice(0, cut + 1);
}

module.exports = { PROSE, INTELLIGIBILITY_PROSE, STREAM_TEXT, proseOf };
