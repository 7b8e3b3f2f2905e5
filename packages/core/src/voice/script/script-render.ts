/**
 * Synthesizes a script line by line into one PCM stream, with each line's position (docs/voice.md,
 * "Scripts"). A line whose engine fails is left out (silent, zero length) and marked `failed`; the others
 * go on. Pauses are silence at the rate of the audio around them.
 */
import type { PcmChunk, SpeechEngine } from '../../ports/speech-engine';
import type { GenerationLine } from '../../ports/storage/voice-generations';
import { collectPcm } from '../synthesis';

/** A line ready to render: its record and, for speech, the engine and engine voice that say it. */
export interface RenderLine {
  line: GenerationLine;
  engine?: SpeechEngine;
  engineVoice?: string;
  /** Sample rate the line's voice produces (for pauses next to it). */
  sampleRate?: number;
}

/** Running position of a PCM stream whose rate may change between chunks, in exact fractional ms. */
export class PcmTimeline {
  private ms = 0;

  add(chunk: PcmChunk): void {
    const frames = chunk.samples.length / Math.max(1, chunk.channels);
    this.ms += (frames * 1000) / chunk.sampleRate;
  }

  get positionMs(): number {
    return Math.round(this.ms);
  }
}

/** A silent mono chunk of `ms` at `sampleRate`. */
export const silenceChunk = (ms: number, sampleRate: number): PcmChunk => ({
  samples: new Int16Array(Math.round((ms * sampleRate) / 1000)),
  sampleRate,
  channels: 1,
});

export interface RenderedScript {
  pcm: PcmChunk[];
  lines: GenerationLine[];
  /** Spoken characters of the lines that were made (what is charged in the end). */
  spokenCharacters: number;
  failedLines: number;
}

/**
 * Renders every line in order. Each speech line is synthesized whole before its audio joins the stream, so
 * a line that fails half-way leaves nothing of itself behind.
 */
export async function renderScript(
  lines: readonly RenderLine[],
  opts: { language?: string; speed: number; onLineError?: (index: number, error: unknown) => void },
): Promise<RenderedScript> {
  const pcm: PcmChunk[] = [];
  const timeline = new PcmTimeline();
  const done: GenerationLine[] = [];
  let spoken = 0;
  let failed = 0;
  // Pauses before the first audio use the first speaking voice's rate.
  let rate = lines.find((l) => l.sampleRate)?.sampleRate ?? 24_000;
  for (const [index, r] of lines.entries()) {
    const start = timeline.positionMs;
    if (r.line.pause_ms !== null) {
      if (r.line.pause_ms > 0) {
        const chunk = silenceChunk(r.line.pause_ms, rate);
        pcm.push(chunk);
        timeline.add(chunk);
      }
      done.push({ ...r.line, status: 'ready', start_ms: start, end_ms: timeline.positionMs });
      continue;
    }
    let chunks: PcmChunk[];
    try {
      chunks = await collectPcm(r.engine!, { text: r.line.text!, voice: r.engineVoice!, language: opts.language, speed: opts.speed });
    } catch (e) {
      opts.onLineError?.(index, e);
      failed++;
      done.push({ ...r.line, status: 'failed', start_ms: start, end_ms: start });
      continue;
    }
    for (const chunk of chunks) {
      pcm.push(chunk);
      timeline.add(chunk);
      rate = chunk.sampleRate;
    }
    spoken += r.line.characters;
    done.push({ ...r.line, status: 'ready', start_ms: start, end_ms: timeline.positionMs });
  }
  return { pcm, lines: done, spokenCharacters: spoken, failedLines: failed };
}
