import 'reflect-metadata';
import test from 'ava';
import type { EngineVoice, SpeechEngine } from '../../src/ports/speech-engine';
import { catalogOrder, toStockVoice, VoiceCatalog } from '../../src/voice/catalog';
import { MEASURED_VOICES } from '../../src/voice/measured-voices';
import { intelligibilityOf, INTELLIGIBILITY_BARS, type MeasuredVoice, qualityOf } from '../../src/voice/voice-quality';

/*
 * The catalog under the bench's measured table (docs/voice.md, "Voice quality"): quality fields, featured only
 * at the bar, and each language's voices best first. The engines are stand-ins that list voices (the catalog
 * never synthesizes): every voice of the table under its own engine id, plus unmeasured ones.
 */

const TABLE: Readonly<Record<string, MeasuredVoice>> = MEASURED_VOICES;

function listingEngine(id: string, voices: EngineVoice[]): SpeechEngine {
  return {
    id,
    voices: async () => voices,
    synthesize: () => {
      throw new Error('not used');
    },
  };
}

function catalogOfTable() {
  const byEngine = new Map<string, EngineVoice[]>();
  for (const [key, row] of Object.entries(TABLE)) {
    const engine = key.slice(0, key.indexOf(':'));
    const voice = key.slice(key.indexOf(':') + 1);
    byEngine.set(engine, [...(byEngine.get(engine) ?? []), { id: voice, name: `${engine} ${voice}`, language: row.language, gender: 'male', sampleRate: 16000 }]);
  }
  const engines = [...byEngine].map(([id, voices]) => listingEngine(id, voices));
  // Unmeasured: a host engine's English voice (sorted by name before every measured one if order ignored quality), and German.
  engines.push(
    listingEngine('host', [
      { id: 'aaa', name: 'A host voice', language: 'en-US', gender: 'female', sampleRate: 24000 },
      { id: 'de', name: 'A German voice', language: 'de', gender: 'male', sampleRate: 24000 },
    ]),
  );
  return new VoiceCatalog(engines);
}

test('the measured table is not empty and its rows are rates', (t) => {
  const rows = Object.entries(TABLE);
  t.true(rows.length >= 4, 'the bench measured the English voices');
  for (const [key, row] of rows) {
    t.regex(key, /^[a-z0-9-]+:[\w+-]+$/);
    t.true(row.prose_wer >= 0 && row.harvard_wer >= 0, key);
    t.regex(row.measured_at, /^\d{4}-\d\d-\d\d$/);
  }
});

test('levels: high at most 10%, medium at most 25%, low beyond; unknown voices are unmeasured', (t) => {
  t.is(intelligibilityOf(0), 'high');
  t.is(intelligibilityOf(INTELLIGIBILITY_BARS.high), 'high');
  t.is(intelligibilityOf(0.1001), 'medium');
  t.is(intelligibilityOf(INTELLIGIBILITY_BARS.medium), 'medium');
  t.is(intelligibilityOf(0.2501), 'low');
  const table = { 'x:good': { prose_wer: 0.03, harvard_wer: 0.2, language: 'en-US', measured_at: '2026-01-01' } };
  t.deepEqual(qualityOf('x', 'good', table), { intelligibility: 'high', wer: 0.03, measured_with: 'plain prose' });
  t.deepEqual(qualityOf('x', 'other', table), { intelligibility: 'unmeasured', wer: null, measured_with: null });
});

test('every voice carries its measured quality; featured and the `clear` style exactly on high ones', async (t) => {
  const voices = await catalogOfTable().list();
  for (const v of voices) {
    const row = TABLE[`${v.engine}:${v.engine_voice}`];
    if (row) t.deepEqual(v.quality, { intelligibility: intelligibilityOf(row.prose_wer), wer: row.prose_wer, measured_with: 'plain prose' }, v.name);
    else t.deepEqual(v.quality, { intelligibility: 'unmeasured', wer: null, measured_with: null }, v.name);
    t.is(v.featured, v.quality.intelligibility === 'high', v.name);
    t.is(v.styles.includes('clear'), v.quality.intelligibility === 'high', v.name);
  }
  t.deepEqual(await catalogOfTable().list({ featured: true }), voices.filter((v) => v.quality.wer !== null && v.quality.wer <= 0.1));
});

test('within a language the most intelligible voice comes first, unmeasured voices last', async (t) => {
  const catalog = catalogOfTable();
  const english = await catalog.list({ language: 'en' });
  const rank = (wer: number | null) => (wer === null ? Infinity : wer);
  for (let i = 1; i < english.length; i++) {
    t.true(rank(english[i - 1]!.quality.wer) <= rank(english[i]!.quality.wer), `${english[i - 1]!.name} before ${english[i]!.name}`);
  }
  const best = Math.min(...Object.values(TABLE).map((r) => r.prose_wer));
  t.is(english[0]!.quality.wer, best, 'the first English voice is the best measured one');
  t.is(english.at(-1)!.engine, 'host', 'the unmeasured voice is last although its name sorts first');
  const all = await catalog.list();
  const featured = all.filter((v) => v.featured).length;
  t.true(all.slice(0, featured).every((v) => v.featured), 'featured voices lead the whole list');
  if (english[0]!.featured) t.is(all[0]!.id, english[0]!.id);
});

test('featured and `clear` exactly at the bar, whatever the table says; order by rate within a language', (t) => {
  const table = {
    'e:a': { prose_wer: 0.04, harvard_wer: 0.2, language: 'en-US', measured_at: '2026-01-01' },
    'e:b': { prose_wer: 0.1, harvard_wer: 0.3, language: 'en-US', measured_at: '2026-01-01' },
    'e:c': { prose_wer: 0.11, harvard_wer: 0.3, language: 'en-US', measured_at: '2026-01-01' },
  };
  const voice = (id: string, name: string, language = 'en-US'): EngineVoice => ({ id, name, language, gender: 'female', sampleRate: 16000 });
  const voices = [voice('u', 'A unmeasured'), voice('c', 'B'), voice('a', 'C'), voice('de', 'D German', 'de'), voice('b', 'E')].map((v) => toStockVoice('e', v, table));
  t.deepEqual(voices.map((v) => [v.engine_voice, v.featured, v.styles.includes('clear')]), [['u', false, false], ['c', false, false], ['a', true, true], ['de', false, false], ['b', true, true]]);
  t.deepEqual([...voices].sort(catalogOrder).map((v) => v.engine_voice), ['a', 'b', 'c', 'u', 'de'], 'featured first, then English by rate, unmeasured last; then German');
});
