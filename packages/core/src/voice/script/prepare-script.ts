/**
 * Checks and prices a script request (docs/voice.md, "Scripts"): items from `lines` or `script`, each
 * line's voice from the catalog (with `cast` and `auto_cast`), the spoken-character limit and the cost.
 * Reads the catalog only; charges and counts nothing.
 */
import { badRequest } from '../../errors';
import type { AudioEncoding, AudioOutput } from '../../ports/audio-encoding';
import type { SpeechEngine } from '../../ports/speech-engine';
import type { GenerationLine, VoiceGeneration } from '../../ports/storage/voice-generations';
import type { StockVoice, VoiceCatalog } from '../catalog';
import { creditsFor, MAX_SYNC_CHARACTERS, secondsEstimated, spokenCharacters } from '../pricing';
import { checkSpeed, type VoiceRequest } from '../schemas';
import { assignVoices, autoCast, NARRATOR, parseCast, withCast } from './script-cast';
import { scriptItemsOf, scriptTotals } from './script-text';
import type { RenderLine } from './script-render';

export interface PreparedScript {
  lines: RenderLine[];
  /** The generation's own voice: the request's `voice`, else the first line's. */
  voice: StockVoice;
  speed: number;
  language: string | undefined;
  quality: string;
  output: AudioOutput;
  characters: number;
  pauseMs: number;
  credits: number;
  secondsEstimated: number;
  /** Which daily-allowance helpers this request used: `auto_convert` when asked, `auto_cast` when it picked a voice. */
  used: { auto_convert: boolean; auto_cast: boolean };
}

const voiceNotFound = (id: string, field: string) => badRequest(`${field}: no voice ${id} (see GET /api/v1/voice/voices)`, { field, reason: 'voice_not_found' });

/** A script request (`retake_of` is taken apart before: see `prepareScriptRetake`). */
export async function prepareScript(catalog: VoiceCatalog, audio: AudioEncoding, body: VoiceRequest, formatOverride?: string): Promise<PreparedScript> {
  const speed = checkSpeed(body);
  const { items } = scriptItemsOf(body);
  const { characters, pauseMs } = scriptTotals(items);
  if (characters > MAX_SYNC_CHARACTERS) {
    throw badRequest(`${body.lines ? 'lines' : 'script'}: ${characters} spoken characters; at most ${MAX_SYNC_CHARACTERS} per request`, {
      field: body.lines ? 'lines' : 'script',
      reason: 'too_many_characters',
      max_characters: MAX_SYNC_CHARACTERS,
    });
  }
  const cast = parseCast(body.cast);
  const defaultVoice = body.voice ? await catalog.find(body.voice) : null;
  if (body.voice && !defaultVoice) throw voiceNotFound(body.voice, 'voice');
  for (const [i, id] of [...cast.values()].entries()) if (!(await catalog.find(id))) throw voiceNotFound(id, `cast.${i}.voice`);

  const assignment = assignVoices(items, cast, body.voice);
  let voices = assignment.voices;
  let autoCastUsed = false;
  if (assignment.missing.length) {
    if (!body.auto_cast) {
      const speakers = assignment.missing.filter((k) => k !== NARRATOR).map((k) => assignment.names.get(k)!);
      throw badRequest(
        speakers.length ? `cast: no voice for ${speakers.join(', ')}; add them to cast or send auto_cast` : 'voice: lines without a speaker need the request voice (or auto_cast)',
        { field: speakers.length ? 'cast' : 'voice', reason: 'speaker_without_voice', speakers },
      );
    }
    const language = body.language ?? defaultVoice?.voice.language_code ?? 'en';
    const candidates = await catalog.list({ language });
    if (!candidates.length) throw badRequest(`language: no voice speaks ${language}, so auto_cast cannot pick one`, { field: 'language', reason: 'no_voice_for_language' });
    const taken = new Set(voices.filter((v): v is string => !!v));
    voices = withCast(items, assignment, autoCast(assignment.missing, candidates, taken));
    autoCastUsed = true;
  }

  const lines: RenderLine[] = [];
  for (const [i, item] of items.entries()) {
    if (item.kind === 'pause') {
      lines.push({ line: { speaker: null, voice_id: null, voice_name: null, text: null, pause_ms: item.pause_ms, status: 'rendering', characters: 0, start_ms: null, end_ms: null } });
      continue;
    }
    const found = await catalog.find(voices[i]!);
    if (!found) throw voiceNotFound(voices[i]!, body.lines ? `lines.${i}.voice` : 'voice');
    lines.push(speechLine(item.speaker, item.text, found.voice, found.engine));
  }
  const first = lines.find((l) => l.line.voice_id)!;
  const voice = defaultVoice?.voice ?? (await catalog.find(first.line.voice_id!))!.voice;
  // `standard` is the default quality of POST /voice for every format (only a stream's mulaw_8k defaults to phone).
  const output = audio.outputSpec({ format: formatOverride ?? body.format ?? 'mp3', quality: body.quality ?? 'standard' });
  return {
    lines,
    voice,
    speed,
    language: body.language,
    quality: output.quality,
    output,
    characters,
    pauseMs,
    credits: creditsFor(characters),
    secondsEstimated: Math.round((secondsEstimated(characters, speed) + pauseMs / 1000) * 10) / 10,
    used: { auto_convert: !!body.auto_convert, auto_cast: autoCastUsed },
  };
}

function speechLine(speaker: string | null, text: string, voice: StockVoice, engine: SpeechEngine): RenderLine {
  const line: GenerationLine = {
    speaker,
    voice_id: voice.id,
    voice_name: voice.name,
    text,
    pause_ms: null,
    status: 'rendering',
    characters: spokenCharacters(text),
    start_ms: null,
    end_ms: null,
  };
  return { line, engine, engineVoice: voice.engine_voice, sampleRate: voice.sample_rate };
}


/**
 * A retake of script generation `original` (docs/voice.md, "Retakes"): the same lines (speakers, voices,
 * words, pauses), language, quality and speed, in `format`. Takes nothing from the daily allowances (nothing
 * is converted or cast again). A voice that no longer exists is 400 `voice_not_found`.
 */
export async function prepareScriptRetake(catalog: VoiceCatalog, audio: AudioEncoding, original: VoiceGeneration, format: string): Promise<PreparedScript> {
  const lines: RenderLine[] = [];
  let characters = 0;
  let pauseMs = 0;
  for (const [i, l] of (original.lines ?? []).entries()) {
    if (l.pause_ms !== null) {
      lines.push({ line: { ...l, status: 'rendering', start_ms: null, end_ms: null } });
      pauseMs += l.pause_ms;
      continue;
    }
    const found = await catalog.find(l.voice_id!);
    if (!found) throw voiceNotFound(l.voice_id!, `lines.${i}.voice`);
    const line = speechLine(l.speaker, l.text!, found.voice, found.engine);
    characters += line.line.characters;
    lines.push(line);
  }
  const first = lines.find((l) => l.line.voice_id);
  if (!first) throw badRequest('retake_of: this script has no spoken line to make again', { field: 'retake_of', reason: 'retake_unavailable' });
  const voice = (await catalog.find(original.voice_id))?.voice ?? (await catalog.find(first.line.voice_id!))!.voice;
  // The request named a language when the generation's differs from its voice's own.
  const language = voice.language !== original.language ? original.language : undefined;
  const output = audio.outputSpec({ format, quality: original.quality });
  return {
    lines,
    voice,
    speed: original.speed,
    language,
    quality: output.quality,
    output,
    characters,
    pauseMs,
    credits: creditsFor(characters),
    secondsEstimated: Math.round((secondsEstimated(characters, original.speed) + pauseMs / 1000) * 10) / 10,
    used: { auto_convert: false, auto_cast: false },
  };
}
