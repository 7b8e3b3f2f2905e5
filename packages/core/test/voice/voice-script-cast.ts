import test from 'ava';
import { assignVoices, autoCast, castingOrder, NARRATOR, parseCast, speakerKey, withCast } from '../../src/voice/script/script-cast';
import type { ScriptItem } from '../../src/voice/script/script-text';
import { FormloomError } from '../../src/errors';

const say = (speaker: string | null, text: string, voice: string | null = null): ScriptItem => ({ kind: 'speech', speaker, voice, text });
const pause: ScriptItem = { kind: 'pause', pause_ms: 100 };

test('speakerKey ignores case and runs of whitespace', (t) => {
  t.is(speakerKey('  Dr.   SMITH '), 'dr. smith');
});

test('parseCast: speaker keys to voices; malformed or contradictory entries are 400 naming the field', (t) => {
  t.deepEqual([...parseCast([{ speaker: 'Anna', voice: 'nv_a' }, { speaker: 'ANNA', voice: 'nv_a' }, { speaker: 'Ben', voice: 'nv_b' }])], [
    ['anna', 'nv_a'],
    ['ben', 'nv_b'],
  ]);
  t.deepEqual([...parseCast(undefined)], []);
  const field = (raw: unknown[]) => {
    const e = t.throws(() => parseCast(raw), { instanceOf: FormloomError });
    return [e!.status, e!.details.field, e!.details.reason];
  };
  t.deepEqual(field(['Anna']), [400, 'cast.0', undefined]);
  t.deepEqual(field([{ speaker: '', voice: 'nv_a' }]), [400, 'cast.0.speaker', undefined]);
  t.deepEqual(field([{ speaker: 'A', voice: 'nv_a' }, { speaker: 'B' }]), [400, 'cast.1.voice', undefined]);
  t.deepEqual(field([{ speaker: 'A', voice: 'nv_a', style: 'x' }]), [400, 'cast.0.style', undefined]);
  t.deepEqual(field([{ speaker: 'Anna', voice: 'nv_a' }, { speaker: 'anna', voice: 'nv_b' }]), [400, 'cast.1', 'cast_conflict']);
});

test('assignVoices: line voice, then cast, then a voice the speaker had earlier; the request voice only for lines without a speaker', (t) => {
  const items = [say('Anna', 'one'), pause, say('Ben', 'two', 'nv_b'), say('ben', 'three'), say(null, 'four'), say('Anna', 'five', 'nv_x'), say('Cleo', 'six')];
  const a = assignVoices(items, new Map([['anna', 'nv_a']]), 'nv_default');
  t.deepEqual(a.voices, ['nv_a', null, 'nv_b', 'nv_b', 'nv_default', 'nv_x', null]);
  t.deepEqual(a.missing, ['cleo']);
  const noDefault = assignVoices(items, new Map(), undefined);
  t.deepEqual(noDefault.voices, ['nv_x', null, 'nv_b', 'nv_b', null, 'nv_x', null], "without a cast, Anna's own later line gives her voice");
  t.deepEqual(noDefault.missing, [NARRATOR, 'cleo']);
  t.is(noDefault.names.get('cleo'), 'Cleo');
  t.is(noDefault.names.get(NARRATOR), 'narrator');
});

const voice = (id: string, gender: string | null, intelligibility = 'unmeasured') => ({ id, gender, quality: { intelligibility } });

test('castingOrder: by intelligibility level, genders in turns within each level, catalog order kept', (t) => {
  const order = castingOrder([
    voice('m1', 'male', 'high'),
    voice('m2', 'male', 'high'),
    voice('f1', 'female', 'high'),
    voice('u1', 'male'),
    voice('l1', 'female', 'low'),
    voice('fm', 'female', 'medium'),
    voice('m3', 'male', 'medium'),
    voice('n1', 'neutral', 'medium'),
  ]);
  t.deepEqual(order.map((v) => v.id), ['m1', 'f1', 'm2', 'fm', 'm3', 'n1', 'l1', 'u1'], 'a medium voice never comes before a high one of another gender');
});

test('autoCast: deterministic, avoids voices already in use, reuses when speakers outnumber voices', (t) => {
  const candidates = [voice('m1', 'male', 'high'), voice('f1', 'female', 'high'), voice('m2', 'male', 'medium')];
  const picked = autoCast(['anna', 'ben', NARRATOR], candidates, new Set(['m1']));
  t.deepEqual([...picked], [['anna', 'f1'], ['ben', 'm2'], [NARRATOR, 'm1']]);
  t.deepEqual([...autoCast(['anna', 'ben', NARRATOR], candidates, new Set(['m1']))], [...picked], 'the same script is cast the same way');
  t.deepEqual([...autoCast(['a', 'b', 'c', 'd'], [voice('x', null), voice('y', null)], new Set())].map(([, v]) => v), ['x', 'y', 'x', 'y']);
  t.deepEqual([...autoCast(['a'], [], new Set())], []);
});

test('withCast fills only the lines that had no voice', (t) => {
  const items = [say('Anna', 'one'), pause, say(null, 'two'), say('Ben', 'three', 'nv_b')];
  const a = assignVoices(items, new Map(), undefined);
  t.deepEqual(withCast(items, a, new Map([['anna', 'nv_auto1'], [NARRATOR, 'nv_auto2']])), ['nv_auto1', null, 'nv_auto2', 'nv_b']);
});
