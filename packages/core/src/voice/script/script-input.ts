/**
 * A script request's body to script items (docs/voice.md, "Scripts"): `lines` checked item by item, or the
 * `script` text (converted first with `auto_convert`). Pure: 400s name the field at fault.
 */
import { badRequest } from '../../errors';
import { spokenCharacters } from '../pricing';
import type { VoiceRequest } from '../schemas';
import { convertToScript, MAX_PAUSE_MS, MAX_SPEAKER_LENGTH, MAX_TOTAL_PAUSE_MS, parseScriptText, type ScriptItem } from './script-text';

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
