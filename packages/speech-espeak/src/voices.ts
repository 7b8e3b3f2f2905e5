import type { EngineVoice } from '@formloom/core';
import type { RawVoice } from './messages';

/** A listed voice and the eSpeak NG voice string (`identifier+variant`) that speaks it. */
export interface VoiceEntry {
  voice: EngineVoice;
  /** The language voice's file, for example `gmw/en-US`. */
  identifier: string;
  /** An eSpeak variant (`klatt4`, `f3`, ...) or undefined for the language's own voice. */
  variant: string | undefined;
  /** eSpeak NG's own name of the language voice (`English (America)`): what a request `language` may name. */
  languageName: string;
}

/** Every voice's name starts with the engine's, as Flite's do (`eSpeak English (America), Klatt 4`). */
const NAME_PREFIX = 'eSpeak ';

/**
 * Extra English voices: eSpeak NG's Klatt synthesizer variants, which a speech recogniser understands better
 * than the default formant voice (docs/voice.md, "Voice quality", has the figures; none of them is clear
 * enough to be featured), and a female voice for the main two varieties. Labels name what a voice is, not
 * how good it is.
 */
const ENGLISH_VARIANTS: Array<{ variant: string; label: string; gender: 'female' | 'male'; only?: string[] }> = [
  { variant: 'klatt4', label: 'Klatt 4', gender: 'male' },
  { variant: 'edward', label: 'Edward', gender: 'male', only: ['en-us', 'en-gb'] },
  { variant: 'f3', label: 'female', gender: 'female', only: ['en-us', 'en-gb'] },
];

/**
 * Tags eSpeak NG spells in a way BCP 47 reads differently (`ca-ba` would be Catalan in Bosnia) or
 * rejects (`en-us-nyc`).
 */
const TAG_OVERRIDES: Record<string, string> = {
  'ca-ba': 'ca-ES-x-balear',
  'ca-nw': 'ca-ES-x-nw',
  'ca-va': 'ca-ES-valencia',
  'chr-us-qaaa-x-west': 'chr-US-x-west',
  'en-us-nyc': 'en-US-x-nyc',
  piqd: 'tlh',
  'ru-cl': 'ru-x-classic',
};

const GENDERS: Record<number, 'male' | 'female'> = { 1: 'male', 2: 'female' };

/** Builds the engine's voice list from eSpeak NG's own voice data, variants right after their language. */
export function buildVoices(raw: RawVoice[], sampleRate: number): VoiceEntry[] {
  const entries: VoiceEntry[] = [];
  const taken = new Set<string>();
  for (const voice of raw) {
    const basename = (voice.identifier.split('/').pop() ?? voice.identifier).toLowerCase();
    const first = (voice.languages[0] ?? basename).toLowerCase();
    // Two voices may share a first language (`yue` and `yue-Latn-jyutping`): the file name tells them apart.
    const id = taken.has(first) ? basename : first;
    taken.add(id);
    const language = toBcp47(id === first ? first : (voice.identifier.split('/').pop() ?? id));
    const gender = GENDERS[voice.gender];
    entries.push({
      voice: { id, name: `${NAME_PREFIX}${voice.name}`, language, ...(gender ? { gender } : {}), sampleRate },
      identifier: voice.identifier,
      variant: undefined,
      languageName: voice.name,
    });
    if (!id.startsWith('en')) continue;
    for (const extra of ENGLISH_VARIANTS) {
      if (extra.only && !extra.only.includes(id)) continue;
      entries.push({
        voice: {
          id: `${id}+${extra.variant}`,
          name: `${NAME_PREFIX}${voice.name}, ${extra.label}`,
          language,
          gender: extra.gender,
          sampleRate,
        },
        identifier: voice.identifier,
        variant: extra.variant,
        languageName: voice.name,
      });
    }
  }
  return entries;
}

/** A canonical BCP 47 tag for an eSpeak NG language name. */
export function toBcp47(name: string): string {
  const override = TAG_OVERRIDES[name.toLowerCase()];
  if (override) return override;
  try {
    return Intl.getCanonicalLocales(name)[0] ?? `und-x-${name.replace(/[^a-z0-9]/gi, '').slice(0, 8)}`;
  } catch {
    return `und-x-${name.replace(/[^a-z0-9]/gi, '').slice(0, 8)}`;
  }
}

/**
 * The voice to speak `language` with when a request names one other than its voice's: the same variant on
 * that language's voice. Matches a BCP 47 tag (exact, then by primary language) or a language name as
 * eSpeak NG or English spells it (`German`, `English (America)`). Undefined when nothing matches.
 */
export function voiceForLanguage(entries: VoiceEntry[], current: VoiceEntry, language: string): string | undefined {
  const wanted = language.trim().toLowerCase();
  if (!wanted) return undefined;
  const plain = entries.filter((e) => e.variant === undefined);
  const primary = (tag: string) => tag.toLowerCase().split('-')[0];
  const currentTag = current.voice.language.toLowerCase();
  if (currentTag === wanted || primary(currentTag) === wanted) return undefined; // already that language
  let displayName: string | undefined;
  try {
    displayName = new Intl.DisplayNames(['en'], { type: 'language' }).of(wanted)?.toLowerCase();
  } catch {
    displayName = undefined;
  }
  const match =
    plain.find((e) => e.voice.language.toLowerCase() === wanted || e.voice.id === wanted) ??
    plain.find((e) => primary(e.voice.language) === wanted) ??
    plain.find((e) => e.languageName.toLowerCase() === wanted) ??
    plain.find((e) => e.languageName.toLowerCase().split(' (')[0] === wanted) ??
    (displayName ? plain.find((e) => e.languageName.toLowerCase().split(' (')[0] === displayName) : undefined);
  if (!match || match.identifier === current.identifier) return undefined;
  return current.variant ? `${match.identifier}+${current.variant}` : match.identifier;
}

/** The eSpeak NG voice string for an entry. */
export function espeakName(entry: VoiceEntry): string {
  return entry.variant ? `${entry.identifier}+${entry.variant}` : entry.identifier;
}
