import test from 'ava';
import { convertToScript, lineCredits, parseScriptText, scriptItemsOf, scriptTotals } from '../../src/voice/script/script-text';
import { FormloomError } from '../../src/errors';

const speech = (speaker: string | null, text: string) => ({ kind: 'speech', speaker, voice: null, text });
const pause = (pause_ms: number) => ({ kind: 'pause', pause_ms });

test('parseScriptText: [Name] lines, untagged lines, blank lines and pauses', (t) => {
  const items = parseScriptText('[Anna] Hello there.\n\n  [Ben]   Hi, Anna!  \r\nThe narrator speaks.\n(pause 2s)\n[Anna] Bye. (pause 500ms) Really, bye.\n(Pause 1.5 s)\n[Ben]');
  t.deepEqual(items, [
    speech('Anna', 'Hello there.'),
    speech('Ben', 'Hi, Anna!'),
    speech(null, 'The narrator speaks.'),
    pause(2000),
    speech('Anna', 'Bye.'),
    pause(500),
    speech('Anna', 'Really, bye.'),
    pause(1500),
  ]);
});

test('parseScriptText: pause units (ms, s, seconds, no unit = seconds)', (t) => {
  t.deepEqual(parseScriptText('(pause 250 ms)(pause 3 seconds)(pause 1)(PAUSE 2sec)'), [pause(250), pause(3000), pause(1000), pause(2000)]);
});

test('convertToScript: a chat log with time stamps, continuation lines and IRC lines', (t) => {
  const log = [
    '[12:01] Alice: Are you coming tonight?',
    '[12:02] Bob: Yes.',
    'I will bring snacks.',
    '12/03/24, 9:15 PM - Alice: Great, see you!',
    '<carol> count me in',
    '',
    'Messages are end-to-end encrypted.',
  ].join('\n');
  t.is(
    convertToScript(log),
    '[Alice] Are you coming tonight?\n[Bob] Yes. I will bring snacks.\n[Alice] Great, see you!\n[carol] count me in\nMessages are end-to-end encrypted.',
  );
});

test('convertToScript: a colon screenplay drops extensions and stage directions, keeps pauses', (t) => {
  const play = ['JOHN (V.O.): It was a dark night.', '(beat)', 'MARY: Was it?', '(pause 1s)', 'DR. SMITH: It was.', 'https://example.com is not a speaker'].join('\n');
  t.is(convertToScript(play), '[JOHN] It was a dark night.\n[MARY] Was it?\n(pause 1s)\n[DR. SMITH] It was. https://example.com is not a speaker');
});

test('convertToScript: a classic screenplay with cues, headings, transitions and action', (t) => {
  const play = [
    'INT. KITCHEN - NIGHT',
    '',
    'Rain on the window.',
    '',
    'JOHN',
    '(quietly)',
    'Did you hear that?',
    '',
    "MARY (CONT'D)",
    'Hear what?',
    'There is nothing there.',
    '',
    'CUT TO:',
  ].join('\n');
  t.is(convertToScript(play), 'Rain on the window.\n[JOHN] Did you hear that?\n[MARY] Hear what? There is nothing there.');
});

test('convertToScript: text already in the multi-voice format is unchanged; converting twice changes nothing', (t) => {
  const script = '[Anna] Hello.\n(pause 2s)\n[Ben] Hi.\nNarration.';
  t.is(convertToScript(script), script);
  const once = convertToScript('Alice: hi\nBob: hello');
  t.is(convertToScript(once), once);
  t.deepEqual(parseScriptText(once), [speech('Alice', 'hi'), speech('Bob', 'hello')]);
});

const body = (over: Record<string, unknown>) => ({ mode: 'script' as const, ...over });
const fieldOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    if (e instanceof FormloomError) return [e.status, e.details.field];
  }
  return null;
};

test('scriptItemsOf: lines with speakers, voices and pauses; totals and line credits', (t) => {
  const { items } = scriptItemsOf(body({ lines: [{ speaker: 'Anna', voice: 'nv_a', text: ' Hello  there. ' }, { pause_ms: 700 }, { text: 'Narration.' }] }));
  t.deepEqual(items, [{ kind: 'speech', speaker: 'Anna', voice: 'nv_a', text: ' Hello  there. ' }, pause(700), speech(null, 'Narration.')]);
  t.deepEqual(scriptTotals(items), { characters: 12 + 10, pauseMs: 700 });
  t.is(lineCredits(12), 4.8);
  t.is(lineCredits(10), 4);
});

test('scriptItemsOf: refusals name the field', (t) => {
  t.deepEqual(fieldOf(() => scriptItemsOf(body({}))), [400, 'lines']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [], script: 'x' }))), [400, 'script']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ script: 'x', text: 'y' }))), [400, 'text']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ text: 'x' }], auto_convert: true }))), [400, 'auto_convert']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ text: 'ok' }, { text: '  ' }] }))), [400, 'lines.1.text']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ text: 'ok', mood: 'sad' }] }))), [400, 'lines.0.mood']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ text: 'ok' }, { pause_ms: 1.5 }] }))), [400, 'lines.1.pause_ms']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ text: 'ok' }, { pause_ms: 60_001 }] }))), [400, 'lines.1.pause_ms']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ text: 'ok' }, { pause_ms: 10, text: 'x' }] }))), [400, 'lines.1.text']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: ['hello'] }))), [400, 'lines.0']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ text: 'x', speaker: 7 }] }))), [400, 'lines.0.speaker']);
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ pause_ms: 100 }] }))), [400, 'lines'], 'nothing to say');
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ script: '[Anna]\n(pause 1s)' }))), [400, 'script']);
  const pauses = Array.from({ length: 6 }, () => ({ pause_ms: 60_000 }));
  t.deepEqual(fieldOf(() => scriptItemsOf(body({ lines: [{ text: 'x' }, ...pauses] }))), [400, 'lines'], 'over 5 minutes of pauses');
});

test('scriptItemsOf: auto_convert converts the script text before parsing', (t) => {
  const { items, converted } = scriptItemsOf(body({ script: 'ANNA: Hi.\nBEN: Hello.', auto_convert: true }));
  t.is(converted, '[ANNA] Hi.\n[BEN] Hello.');
  t.deepEqual(items, [speech('ANNA', 'Hi.'), speech('BEN', 'Hello.')]);
  t.deepEqual(scriptItemsOf(body({ script: 'ANNA: Hi.' })).items, [speech(null, 'ANNA: Hi.')], 'without auto_convert the text is read as it is');
});
