import { createHash } from 'node:crypto';

/**
 * Reuse and retention (docs/voice.md, "Reuse and retention"): an identical request (speak or script) within
 * 30 days is answered with the earlier generation's audio for 0 credits; unsaved audio is deleted after 30 days.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** How far back an identical request is looked for. */
export const REUSE_WINDOW_MS = 30 * DAY_MS;
/** How long unsaved audio is kept. */
export const RETENTION_MS = 30 * DAY_MS;

/** What makes two speak requests identical: everything that shapes the audio, nothing that does not. */
export interface RequestIdentity {
  /** The words exactly as sent (a different space or capital is another request). */
  text: string;
  /** The `nv_` voice. */
  voiceId: string;
  /** The language spoken, as a name (the voice's own when the request named none). */
  language: string;
  quality: string;
  speed: number;
  /** The requested format (`mulaw_8k` for its alias). */
  format: string;
}

/** The `request_hash` stored on a generation and looked up by later requests. */
export function requestHash(r: RequestIdentity): string {
  const canonical = JSON.stringify(['speak', r.text, r.voiceId, r.language, r.quality, r.speed, r.format]);
  return createHash('sha256').update(canonical).digest('hex');
}

/** What makes two scripts identical: every line as resolved (speaker, `nv_` voice, words, or a pause) and the rest as for speak. */
export interface ScriptIdentity {
  lines: ReadonlyArray<readonly [speaker: string | null, voiceId: string | null, text: string | null, pauseMs: number | null]>;
  language: string;
  quality: string;
  speed: number;
  format: string;
}

/** The `request_hash` of a script (never equal to a speak request's). */
export function scriptRequestHash(r: ScriptIdentity): string {
  const canonical = JSON.stringify(['script', r.lines, r.language, r.quality, r.speed, r.format]);
  return createHash('sha256').update(canonical).digest('hex');
}
