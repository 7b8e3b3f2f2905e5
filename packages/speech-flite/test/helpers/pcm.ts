import type { PcmChunk } from '@formloom/core';
import { waitFor as poll } from '@formloom/core/testing';

export async function collect(source: AsyncIterable<PcmChunk>): Promise<PcmChunk[]> {
  const chunks: PcmChunk[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return chunks;
}

/** Total duration in seconds. */
export function seconds(chunks: PcmChunk[]): number {
  return chunks.reduce((sum, chunk) => sum + chunk.samples.length / chunk.channels / chunk.sampleRate, 0);
}

/** Root mean square on a [-1, 1] scale. */
export function loudness(chunks: PcmChunk[]): number {
  let sum = 0;
  let count = 0;
  for (const chunk of chunks) {
    for (const sample of chunk.samples) sum += (sample / 32768) ** 2;
    count += chunk.samples.length;
  }
  return count === 0 ? 0 : Math.sqrt(sum / count);
}

/** Whether a process with this pid exists (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Polls `condition` until it holds; throws after `limitMs` (a hung engine fails the test, not ava's timer). */
export async function waitFor(condition: () => boolean, limitMs = 30_000): Promise<void> {
  await poll(condition, { timeoutMs: limitMs, intervalMs: 20 });
}
