/**
 * The multi-voice script text (`script`, docs/voice.md "Scripts"): one line per speaker as `[Name] words`,
 * pauses as `(pause 2s)`, and `auto_convert` of pasted screenplays and chat logs (`NAME: words`) into that
 * format. Pure functions: no I/O, no catalog.
 */
import { badRequest } from '../../errors';
import { spokenCharacters } from '../pricing';
import type { VoiceRequest } from '../schemas';
import { MAX_PAUSE_MS, MAX_SPEAKER_LENGTH, MAX_TOTAL_PAUSE_MS } from './script-limits';

/** One item of a script: words said by a speaker (null: the request's `voice`), or a silence. */
export type ScriptItem =
  | { kind: 'speech'; speaker: string | null; voice: string | null; text: string }
  | { kind: 'pause'; pause_ms: number };

export { MAX_PAUSE_MS, MAX_SPEAKER_LENGTH, MAX_TOTAL_PAUSE_MS } from './script-limits';

/** `(pause 2s)`, `(pause 1.5 s)`, `(pause 500ms)`, `(pause 2 seconds)`; case-insensitive. */
const PAUSE = /\(\s*pause\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)?\s*\)/giu;
const TAG = /^\[([^\]\n]{1,64})\]\s*(.*)$/u;

/** Milliseconds of a pause marker's number and unit (seconds when no unit is given). */
function pauseMs(amount: string, unit: string | undefined): number {
  const n = Number(amount);
  return Math.round(unit && unit.toLowerCase().startsWith('m') ? n : n * 1000);
}

/** Splits one speaker's words at inline pause markers: `Hi. (pause 1s) Bye.` is speech, pause, speech. */
function splitPauses(speaker: string | null, words: string): ScriptItem[] {
  const items: ScriptItem[] = [];
  let last = 0;
  const push = (text: string) => {
    const t = text.trim();
    if (t) items.push({ kind: 'speech', speaker, voice: null, text: t });
  };
  for (const m of words.matchAll(PAUSE)) {
    push(words.slice(last, m.index));
    items.push({ kind: 'pause', pause_ms: pauseMs(m[1]!, m[2]) });
    last = m.index! + m[0].length;
  }
  push(words.slice(last));
  return items;
}

/**
 * Parses the multi-voice format: each non-blank line is `[Name] words` (spoken by Name) or untagged words
 * (spoken by the request's `voice`); `(pause 2s)` anywhere is a silence. A tag with no words says nothing.
 */
export function parseScriptText(script: string): ScriptItem[] {
  const items: ScriptItem[] = [];
  for (const raw of script.split(/\r\n|\r|\n/u)) {
    const line = raw.trim();
    if (!line) continue;
    const tag = TAG.exec(line);
    const speaker = tag ? tag[1]!.trim() || null : null;
    items.push(...splitPauses(speaker, tag ? tag[2]! : line));
  }
  return items;
}

/* ---------------------------------------------------------------------------------------------------------
 * auto_convert: screenplays and chat logs to `[Name] words`.
 * ------------------------------------------------------------------------------------------------------- */

/** Chat time stamps a line may start with: `[12:34]`, `12:34 PM - `, `1/2/24, 12:34 - `, `[2024-01-02 12:34:56]`. */
const TIMESTAMP =
  /^\[?(?:\d{1,4}[./-]\d{1,2}[./-]\d{1,4},?\s+)?\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\.?)?\]?\s*(?:[-–—]\s*)?/u;
/** A speaker name: starts with a letter, at most four words of letters, digits and `.'’-_`. */
const NAME = String.raw`\p{L}[\p{L}\p{M}\p{N}.'’_-]*(?:\s+[\p{L}\p{N}][\p{L}\p{M}\p{N}.'’_-]*){0,3}`;
/** `NAME: words` or `NAME (V.O.): words`; the colon must be followed by a space or the end (not a URL). */
const COLON_LINE = new RegExp(String.raw`^(${NAME})\s*(?:\([^)]{1,20}\))?\s*:(?:\s+(.*))?$`, 'u');
/** IRC style `<Name> words`. */
const IRC_LINE = new RegExp(String.raw`^<(${NAME})>\s*(.*)$`, 'u');
/** A screenplay character cue: an upper-case name alone on its line, with an optional `(V.O.)`-like extension. */
const CUE_LINE = /^([\p{Lu}][\p{Lu}\p{N} .'’_-]{0,39}?)\s*(?:\([^)]{1,20}\))?$/u;
/** Screenplay lines that are not said: scene headings and transitions. */
const NOT_SAID = /^(?:(?:INT|EXT|INT\.?\/EXT|I\/E|EST)[. ]|FADE (?:IN|OUT)|CUT TO:|DISSOLVE TO:|SMASH CUT|[\p{Lu} ]+ TO:$|THE END$)/u;
const PARENTHETICAL = /^\([^)]*\)$/u;

const isPause = (line: string) => new RegExp(`^${PAUSE.source}$`, 'iu').test(line);

/** Strips a leading chat time stamp unless that would leave nothing (a line that is only a time). */
function withoutTimestamp(line: string): string {
  const stripped = line.replace(TIMESTAMP, '');
  return stripped && stripped !== line && /\d:\d/u.test(line.slice(0, line.length - stripped.length)) ? stripped : line;
}

/** Whether the text is a chat log or a colon-style screenplay (some line is `NAME: words`). */
function hasColonLines(lines: string[]): boolean {
  return lines.some((l) => {
    const m = COLON_LINE.exec(withoutTimestamp(l));
    return !!m && !!m[2]?.trim();
  });
}

/**
 * `auto_convert`: turns a pasted screenplay or chat log into the multi-voice format.
 *
 * - `NAME: words` and `<Name> words` lines (after an optional chat time stamp) become `[NAME] words`; a
 *   parenthetical extension such as `(V.O.)` is dropped from the name.
 * - Without any such line, a classic screenplay is read instead: an upper-case character cue alone on its
 *   line gives the speaker of the dialogue lines under it; scene headings and transitions are dropped.
 * - Lines that are only a parenthetical (`(beat)`, `(laughs)`) are stage directions and dropped, except
 *   pauses. A line that continues a turn (no blank line between) joins it; a blank line ends the turn, and
 *   untagged text outside a turn stays untagged (the request's `voice` reads it).
 * - Lines already in the multi-voice format stay as they are, so converting twice changes nothing.
 */
export function convertToScript(text: string): string {
  const lines = text.split(/\r\n|\r|\n/u).map((l) => l.trim());
  const colonMode = hasColonLines(lines);
  const out: string[] = [];
  let open: { speaker: string | null; words: string[] } | null = null;
  const close = () => {
    if (open && open.words.length) out.push(`${open.speaker === null ? '' : `[${open.speaker}] `}${open.words.join(' ')}`);
    open = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line) {
      close();
      continue;
    }
    if (isPause(line)) {
      close();
      out.push(line);
      continue;
    }
    if (TAG.test(line) && !TIMESTAMP.test(line)) {
      close();
      const tag = TAG.exec(line)!;
      // A tagged line is a whole turn; a tag alone opens one for the lines under it.
      if (tag[2]!.trim()) out.push(line);
      else open = { speaker: tag[1]!.trim(), words: [] };
      continue;
    }
    if (PARENTHETICAL.test(line)) continue;
    const said = colonMode ? speakerLine(withoutTimestamp(line)) : cueLine(line, lines[i + 1]);
    if (said === 'skip') continue;
    if (said) {
      close();
      open = { speaker: said.speaker, words: said.words ? [said.words] : [] };
      continue;
    }
    if (!open) open = { speaker: null, words: [] };
    open.words.push(line);
  }
  close();
  return out.join('\n');
}

function cleanName(name: string): string {
  return name.trim().replace(/\s+/gu, ' ').slice(0, MAX_SPEAKER_LENGTH);
}

function speakerLine(line: string): { speaker: string; words: string } | null {
  const m = COLON_LINE.exec(line) ?? IRC_LINE.exec(line);
  if (!m) return null;
  return { speaker: cleanName(m[1]!), words: (m[2] ?? '').trim() };
}

/** In a classic screenplay: a character cue opens a turn; headings and transitions are skipped. */
function cueLine(line: string, next: string | undefined): { speaker: string; words: string } | 'skip' | null {
  if (NOT_SAID.test(line)) return 'skip';
  const m = CUE_LINE.exec(line);
  if (!m || !/\p{Lu}{2}/u.test(m[1]!) || !next) return null;
  return { speaker: cleanName(m[1]!), words: '' };
}

/* ---------------------------------------------------------------------------------------------------------
 * A script request's body to items: `lines` checked item by item, or the `script` text (converted first
 * with `auto_convert`). 400s name the field at fault.
 * ------------------------------------------------------------------------------------------------------- */

/** Whether a body is a script: `mode: script`, or an estimate of one (it has `lines` or `script`). */
export const isScriptBody = (body: VoiceRequest) => body.mode === 'script' || (body.mode === 'estimate' && (body.lines !== undefined || body.script !== undefined));

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function optionalString(item: Record<string, unknown>, name: string, field: string, max: number): string | null {
  const v = item[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== 'string' || !v.trim() || v.length > max) throw badRequest(`${field}.${name}: a string of 1 to ${max} characters`, { field: `${field}.${name}` });
  return v.trim();
}

/** One `lines` item: `{speaker?, voice?, text}` or `{pause_ms}`. */
function lineItem(raw: unknown, i: number): ScriptItem {
  const field = `lines.${i}`;
  if (!isObject(raw)) throw badRequest(`${field}: must be {speaker, voice, text} or {pause_ms}`, { field });
  if ('pause_ms' in raw) {
    const extra = Object.keys(raw).find((k) => k !== 'pause_ms');
    if (extra) throw badRequest(`${field}.${extra}: a pause carries only pause_ms`, { field: `${field}.${extra}` });
    const ms = raw.pause_ms;
    if (typeof ms !== 'number' || !Number.isInteger(ms) || ms < 0 || ms > MAX_PAUSE_MS) {
      throw badRequest(`${field}.pause_ms: an integer from 0 to ${MAX_PAUSE_MS}`, { field: `${field}.pause_ms`, max_pause_ms: MAX_PAUSE_MS });
    }
    return { kind: 'pause', pause_ms: ms };
  }
  const extra = Object.keys(raw).find((k) => k !== 'speaker' && k !== 'voice' && k !== 'text');
  if (extra) throw badRequest(`${field}.${extra}: unknown field`, { field: `${field}.${extra}` });
  if (typeof raw.text !== 'string' || !raw.text.trim()) throw badRequest(`${field}.text: required`, { field: `${field}.text` });
  return {
    kind: 'speech',
    speaker: optionalString(raw, 'speaker', field, MAX_SPEAKER_LENGTH),
    voice: optionalString(raw, 'voice', field, 64),
    text: raw.text,
  };
}

/** The script's items and whether `auto_convert` changed anything (it counts against the daily allowance when asked). */
export function scriptItemsOf(body: VoiceRequest): { items: ScriptItem[]; converted: string | null } {
  if (body.text !== undefined) throw badRequest('text: a script takes lines or script, not text', { field: 'text' });
  if (body.lines !== undefined && body.script !== undefined) throw badRequest('script: send lines or script, not both', { field: 'script' });
  if (body.lines === undefined && body.script === undefined) throw badRequest('lines: a script needs lines or script', { field: 'lines' });
  if (body.auto_convert && body.script === undefined) throw badRequest('auto_convert: converts the script text; send script', { field: 'auto_convert' });
  let items: ScriptItem[];
  let converted: string | null = null;
  if (body.lines !== undefined) {
    items = body.lines.map(lineItem);
  } else {
    converted = body.auto_convert ? convertToScript(body.script!) : null;
    items = parseScriptText(converted ?? body.script!);
  }
  const totals = scriptTotals(items);
  if (totals.characters === 0) throw badRequest(`${body.lines ? 'lines' : 'script'}: nothing to say (no spoken line)`, { field: body.lines ? 'lines' : 'script' });
  if (totals.pauseMs > MAX_TOTAL_PAUSE_MS) {
    throw badRequest(`pauses: ${totals.pauseMs} ms in all; at most ${MAX_TOTAL_PAUSE_MS} per request`, { field: body.lines ? 'lines' : 'script', max_total_pause_ms: MAX_TOTAL_PAUSE_MS });
  }
  if (items.length > 10_000) throw badRequest(`script: ${items.length} lines; at most 10000`, { field: 'script', max_lines: 10_000 });
  return { items, converted };
}

/** Spoken characters (billed) and milliseconds of silence (free) of a script. */
export function scriptTotals(items: readonly ScriptItem[]): { characters: number; pauseMs: number } {
  let characters = 0;
  let pauseMs = 0;
  for (const item of items) {
    if (item.kind === 'speech') characters += spokenCharacters(item.text);
    else pauseMs += item.pause_ms;
  }
  return { characters, pauseMs };
}

/** A line's share of the price, as a decimal (0.4 per spoken character); the request is rounded once. */
export const lineCredits = (characters: number) => Math.round(characters * 4) / 10;
