/**
 * An encoder child process (forked by pool.ts): the in-process `AudioCodecs` (LAME, libopus and the Speex
 * resampler, all WebAssembly) serving the streams the server opens on it. A fault in a codec ends this
 * process, not the server. Calls on one stream are serialised by its `AudioEncoder`; streams run side by side.
 */
import { AudioCodecs, type AudioEncoder } from '../encoder';
import type { FromEncoder, ToEncoder } from './messages';

if (!process.send) throw new Error('@formloom/audio: isolated/child.js runs only as a child process with an IPC channel');

const codecs = new AudioCodecs();
const streams = new Map<number, AudioEncoder>();
const send = (message: FromEncoder) => process.send?.(message);

async function handle(message: ToEncoder): Promise<void> {
  if (message.type === 'open') {
    const encoder = codecs.createEncoder({ format: message.format, quality: message.quality });
    encoder.prepare(); // LAME's set-up overlaps the wait for the first PCM, as in this process's parent once did
    streams.set(message.stream, encoder);
    return;
  }
  const encoder = streams.get(message.stream);
  if (message.type === 'abort') {
    streams.delete(message.stream);
    encoder?.abort();
    return;
  }
  try {
    if (!encoder) throw new Error(`no open audio stream ${message.stream}`);
    if (message.type === 'write') {
      const { samples, sampleRate, channels } = message;
      const bytes = await encoder.write({ samples, sampleRate, channels });
      send({ type: 'bytes', stream: message.stream, call: message.call, bytes });
    } else {
      const bytes = await encoder.finish();
      streams.delete(message.stream);
      const finalHeader = encoder.finalHeader();
      send({ type: 'finished', stream: message.stream, call: message.call, bytes, durationMs: encoder.durationMs, ...(finalHeader ? { finalHeader } : {}) });
    }
  } catch (error) {
    streams.delete(message.stream); // a failed call aborts its encoder (AudioEncoder does): the stream is over
    send({ type: 'error', stream: message.stream, call: message.call, message: error instanceof Error ? error.message : String(error) });
  }
}

// An open that fails (it cannot: the parent checked the options) leaves the stream unknown: its calls fail.
process.on('message', (message: ToEncoder) => void handle(message).catch(() => undefined));
// The server's death closes the channel: leave with it rather than linger.
process.on('disconnect', () => process.exit(0));
