import { inject, injectable } from 'tsyringe';
import { sha256Hex } from '../hashing';
import type { EngineVoice, SpeechEngine } from '../ports/speech-engine';
import { TOKENS } from '../tokens';
import { type MeasuredVoice, qualityOf, qualityRank, type VoiceQuality } from './voice-quality';

/** A public stock voice: an engine voice under a stable `nv_` id (docs/voice.md, "Voices"). */
export interface StockVoice {
  id: string;
  name: string;
  /** English name of the language (`German`). */
  language: string;
  /** BCP 47 tag (`de`, `en-US`). */
  language_code: string;
  gender: 'female' | 'male' | 'neutral' | null;
  engine: string;
  styles: string[];
  /** Shown first and listed by `featured=true`: only voices whose measured intelligibility is `high`. */
  featured: boolean;
  /** What the voice bench measured (voice-quality.ts). */
  quality: VoiceQuality;
  sample_rate: number;
  /** The engine's own voice id. */
  engine_voice: string;
}

export interface VoiceFilter {
  source?: 'all' | 'stock' | 'mine';
  language?: string;
  gender?: string;
  q?: string;
  featured?: boolean;
}

/** The id of an engine voice: a hash of engine id and engine voice id, so it survives restarts and re-orderings. */
export const voiceIdOf = (engine: string, engineVoice: string) => `nv_${sha256Hex(`${engine}\u0000${engineVoice}`).slice(0, 20)}`;

/**
 * eSpeak's variant suffixes, as the style labels a person would search for. Nothing here claims clarity:
 * `clear` is the style of voices measured `high` (docs/voice.md, "Voice quality").
 */
const VARIANT_STYLES: Record<string, string[]> = { edward: ['deep'], f3: ['female'] };

/** English name of a BCP 47 tag's language (`de-AT` -> `German`); anything else (a name) as given. */
export function languageName(code: string): string {
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(code)) return code;
  try {
    const names = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });
    const primary = names.of(code.split('-')[0]!) ?? code;
    return primary;
  } catch {
    return code;
  }
}

function stylesOf(engine: string, v: EngineVoice, quality: VoiceQuality): string[] {
  const styles = new Set<string>([engine]);
  const variant = v.id.split('+')[1];
  if (variant?.startsWith('klatt')) styles.add('klatt');
  for (const s of (variant && VARIANT_STYLES[variant]) || []) styles.add(s);
  if (quality.intelligibility === 'high') styles.add('clear');
  // Flite names carry their description in parentheses: "Flite RMS (American English, male)".
  const described = /\(([^)]*)\)/.exec(v.name)?.[1];
  for (const part of described?.split(',') ?? []) if (part.trim()) styles.add(part.trim().toLowerCase());
  return [...styles];
}

/** An engine voice as a stock voice; `measured` is the bench's table (a test may give its own). */
export function toStockVoice(engine: string, v: EngineVoice, measured?: Readonly<Record<string, MeasuredVoice>>): StockVoice {
  const quality = qualityOf(engine, v.id, measured);
  return {
    id: voiceIdOf(engine, v.id),
    name: v.name,
    language: languageName(v.language),
    language_code: v.language,
    gender: v.gender ?? null,
    engine,
    styles: stylesOf(engine, v, quality),
    featured: quality.intelligibility === 'high',
    quality,
    sample_rate: v.sampleRate,
    engine_voice: v.id,
  };
}

/** Whether `wanted` (a language name or BCP 47 tag) names the voice's language. */
export function languageMatches(voice: StockVoice, wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  const code = voice.language_code.toLowerCase();
  return voice.language.toLowerCase() === w || code === w || code.startsWith(`${w}-`);
}

export function filterVoices(voices: readonly StockVoice[], f: VoiceFilter): StockVoice[] {
  if (f.source === 'mine') return []; // No custom voices yet (docs/decisions.md, "Voice").
  const q = f.q?.trim().toLowerCase();
  return voices.filter(
    (v) =>
      (!f.language || languageMatches(v, f.language)) &&
      (!f.gender || v.gender === f.gender.toLowerCase()) &&
      (f.featured === undefined || v.featured === f.featured) &&
      (!q || [v.name, v.language, v.language_code, ...v.styles].some((s) => s.toLowerCase().includes(q))),
  );
}

/**
 * The list's order: featured voices first, then by language, and within a language the most intelligible
 * first (measured word error rate; unmeasured voices last), then by name. So the first voice of a language
 * is the one a person understands best, and `auto_cast` takes voices in this order.
 */
export function catalogOrder(a: StockVoice, b: StockVoice): number {
  return (
    Number(b.featured) - Number(a.featured) ||
    a.language.localeCompare(b.language) ||
    qualityRank(a.quality) - qualityRank(b.quality) ||
    a.name.localeCompare(b.name)
  );
}

/** Every engine's voices under public ids, loaded once per instance on first use. */
@injectable()
export class VoiceCatalog {
  private loaded?: Promise<{ list: StockVoice[]; byId: Map<string, { voice: StockVoice; engine: SpeechEngine }> }>;

  constructor(@inject(TOKENS.SpeechEngines) private readonly engines: readonly SpeechEngine[]) {}

  private load() {
    this.loaded ??= (async () => {
      const list: StockVoice[] = [];
      const byId = new Map<string, { voice: StockVoice; engine: SpeechEngine }>();
      for (const engine of this.engines) {
        for (const v of await engine.voices()) {
          const voice = toStockVoice(engine.id, v);
          list.push(voice);
          byId.set(voice.id, { voice, engine });
        }
      }
      list.sort(catalogOrder);
      return { list, byId };
    })().catch((e) => {
      this.loaded = undefined; // An engine that failed to start is tried again next time.
      throw e;
    });
    return this.loaded;
  }

  async list(filter: VoiceFilter = {}): Promise<StockVoice[]> {
    return filterVoices((await this.load()).list, filter);
  }

  async find(id: string): Promise<{ voice: StockVoice; engine: SpeechEngine } | null> {
    return (await this.load()).byId.get(id) ?? null;
  }
}
