/**
 * Who speaks each script line with which voice (docs/voice.md, "Scripts"): a line's own `voice`, else the
 * `cast` entry of its speaker (or the voice an earlier line gave that speaker), else, for a line without a
 * speaker, the request's `voice`. `auto_cast` picks voices for whatever is left. Pure functions.
 */
import { badRequest } from '../../errors';
import { MAX_SPEAKER_LENGTH, type ScriptItem } from './script-text';

/** The key a speaker is matched by: case and runs of whitespace do not matter (`ANNA` is `Anna`). */
export const speakerKey = (name: string) => name.trim().replace(/\s+/gu, ' ').toLowerCase();

/** The narrator: lines without a speaker, when the request names no `voice`. */
export const NARRATOR = '';

/** Parses `cast: [{speaker, voice}]` into speaker key -> voice id; 400 for a malformed or contradictory entry. */
export function parseCast(raw: readonly unknown[] | undefined): Map<string, string> {
  const cast = new Map<string, string>();
  (raw ?? []).forEach((entry, i) => {
    const field = `cast.${i}`;
    if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw badRequest(`${field}: must be {speaker, voice}`, { field });
    const { speaker, voice, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest)[0];
    if (extra) throw badRequest(`${field}.${extra}: unknown field`, { field: `${field}.${extra}` });
    if (typeof speaker !== 'string' || !speaker.trim() || speaker.length > MAX_SPEAKER_LENGTH) {
      throw badRequest(`${field}.speaker: a name of 1 to ${MAX_SPEAKER_LENGTH} characters`, { field: `${field}.speaker` });
    }
    if (typeof voice !== 'string' || !voice) throw badRequest(`${field}.voice: required (an nv_ id)`, { field: `${field}.voice` });
    const key = speakerKey(speaker);
    const before = cast.get(key);
    if (before !== undefined && before !== voice) {
      throw badRequest(`${field}: speaker ${speaker} is cast twice with different voices`, { field, reason: 'cast_conflict' });
    }
    cast.set(key, voice);
  });
  return cast;
}

/** Each speech item's voice id (null when unresolved; pauses are null too) and who still needs a voice. */
export interface VoiceAssignment {
  voices: Array<string | null>;
  /** Speaker keys without a voice, in order of first appearance; {@link NARRATOR} for unvoiced lines without a speaker. */
  missing: string[];
  /** The display name of each missing speaker key, as first written. */
  names: Map<string, string>;
}

/**
 * Resolves every line's voice. A speaker keeps the voice of the cast, else the first voice a line of theirs
 * named; a line's own `voice` wins for that line.
 */
export function assignVoices(items: readonly ScriptItem[], cast: ReadonlyMap<string, string>, defaultVoice: string | undefined): VoiceAssignment {
  const bySpeaker = new Map(cast);
  for (const item of items) {
    if (item.kind === 'speech' && item.speaker !== null && item.voice && !bySpeaker.has(speakerKey(item.speaker))) {
      bySpeaker.set(speakerKey(item.speaker), item.voice);
    }
  }
  const missing: string[] = [];
  const names = new Map<string, string>();
  const voices = items.map((item) => {
    if (item.kind !== 'speech') return null;
    const key = item.speaker === null ? NARRATOR : speakerKey(item.speaker);
    const voice = item.voice ?? (item.speaker === null ? defaultVoice : bySpeaker.get(key)) ?? null;
    if (voice === null && !names.has(key)) {
      missing.push(key);
      names.set(key, item.speaker ?? 'narrator');
    }
    return voice;
  });
  return { voices, missing, names };
}

/** A voice `auto_cast` may pick: already filtered to the script's language, in catalog order (best first). */
export interface CastCandidate {
  id: string;
  gender: string | null;
  quality: { intelligibility: string };
}

/** Intelligibility levels from best to unknown (voice-quality.ts); anything else after them. */
const TIERS = ['high', 'medium', 'low', 'unmeasured'];
const tierOf = (c: CastCandidate) => {
  const i = TIERS.indexOf(c.quality.intelligibility);
  return i < 0 ? TIERS.length : i;
};

/**
 * Orders candidates for casting: by measured intelligibility level (the `high` voices, then `medium`, ...),
 * and within each level the genders taken in turns (first voice of the first gender seen, first of the next,
 * ...), so that consecutive speakers sound different without a less intelligible voice coming before a
 * clearer one of another level. Within a gender the catalog order (best first) stays.
 */
export function castingOrder(candidates: readonly CastCandidate[]): CastCandidate[] {
  const interleave = (group: readonly CastCandidate[]) => {
    const byGender = new Map<string, CastCandidate[]>();
    for (const c of group) {
      const g = c.gender ?? 'unknown';
      byGender.set(g, [...(byGender.get(g) ?? []), c]);
    }
    const queues = [...byGender.values()];
    const out: CastCandidate[] = [];
    for (let i = 0; out.length < group.length; i++) for (const q of queues) if (q[i]) out.push(q[i]!);
    return out;
  };
  const tiers = [...new Set(candidates.map(tierOf))].sort((a, b) => a - b);
  return tiers.flatMap((tier) => interleave(candidates.filter((c) => tierOf(c) === tier)));
}

/**
 * `auto_cast`: a voice for each missing speaker, deterministic (the same script is cast the same way, so
 * idempotent replays and estimates agree). Voices the script already uses are picked last; when speakers
 * outnumber voices, voices are reused in the same order.
 * @returns speaker key -> voice id; empty when there are no candidates.
 */
export function autoCast(missing: readonly string[], candidates: readonly CastCandidate[], taken: ReadonlySet<string>): Map<string, string> {
  const order = castingOrder(candidates);
  const fresh = [...order.filter((c) => !taken.has(c.id)), ...order.filter((c) => taken.has(c.id))];
  const picked = new Map<string, string>();
  if (!fresh.length) return picked;
  missing.forEach((key, i) => picked.set(key, fresh[i % fresh.length]!.id));
  return picked;
}

/** Applies an `auto_cast` result to the unresolved lines. */
export function withCast(items: readonly ScriptItem[], assignment: VoiceAssignment, picked: ReadonlyMap<string, string>): Array<string | null> {
  return items.map((item, i) => {
    const voice = assignment.voices[i] ?? null;
    if (item.kind !== 'speech' || voice) return voice;
    return picked.get(item.speaker === null ? NARRATOR : speakerKey(item.speaker)) ?? null;
  });
}
