/**
 * `ogg_opus`: libopus (opusscript's wasm build) for the packets, mediabunny's Ogg muxer for the pages
 * (OpusHead/OpusTags headers, granule positions, CRCs; RFC 7845).
 *
 * opusscript's JS wrapper addresses wasm memory with byte pointers used as 16-bit indices (it writes
 * outside its allocations), so this module calls its native handler directly with its own buffers. The
 * native `_encode` expects each input byte in its own 16-bit slot and packs them in place.
 *
 * Timing: the encoder delays its output by its lookahead, signalled as the header's pre-skip. At the end,
 * that many zeros are pushed through so the last real samples come out, and the last packet is trimmed
 * (granule position) so the decoded duration equals the input duration exactly.
 */
import type { OutputSpec } from '../formats';
import { floatToInt16 } from '../pcm';
import type { Mediabunny, OpusHandler, OpusModule, WasmModules } from '../wasm';
import { type Codec, concatBytes, MuxedOutput } from './codec';

const OPUS_RATE = 48_000;
const FRAME_MS = 20;
const MAX_PACKET_BYTES = 1276 * 3;
const CTL = { setBitrate: 4002, setComplexity: 4010, getLookahead: 4027 } as const;
const APPLICATION = { voip: 2048, audio: 2049 } as const;

/** Bits per second per quality: transparent for speech at each band. */
export const OPUS_BITRATES: Record<OutputSpec['quality'], number> = { phone: 16_000, standard: 32_000, studio: 64_000 };
/** libopus complexity 0-10: 5 encodes speech at about 10x real time in wasm with no audible loss. */
export const OPUS_COMPLEXITY = 5;

/** The 19-byte identification header of RFC 7845 section 5.1 (mono, channel mapping family 0). */
export function opusHead(preSkip: number, inputSampleRate: number): Uint8Array {
  const head = new Uint8Array(19);
  const v = new DataView(head.buffer);
  head.set([0x4f, 0x70, 0x75, 0x73, 0x48, 0x65, 0x61, 0x64]); // "OpusHead"
  head[8] = 1; // version
  head[9] = 1; // channels
  v.setUint16(10, preSkip, true);
  v.setUint32(12, inputSampleRate, true);
  v.setInt16(16, 0, true); // output gain
  head[18] = 0; // mapping family
  return head;
}

export class OggOpusCodec implements Codec {
  private readonly frameSize: number;
  private readonly frame: Float32Array;
  private filled = 0;
  private packets = 0;
  private ready: Promise<void> | undefined;
  private m: OpusModule | undefined;
  private handler: OpusHandler | undefined;
  private inPtr = 0;
  private outPtr = 0;
  private lookahead = 0;
  private muxed: MuxedOutput | undefined;
  private source: InstanceType<Mediabunny['EncodedAudioPacketSource']> | undefined;
  private mb: Mediabunny | undefined;

  constructor(private readonly spec: OutputSpec, private readonly modules: WasmModules) {
    this.frameSize = (spec.sampleRate * FRAME_MS) / 1000;
    this.frame = new Float32Array(this.frameSize);
  }

  async write(samples: Float32Array): Promise<Uint8Array> {
    await (this.ready ??= this.init());
    const out: Uint8Array[] = [];
    let at = 0;
    while (at < samples.length) {
      const n = Math.min(samples.length - at, this.frameSize - this.filled);
      this.frame.set(samples.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.frameSize) {
        await this.encodeFrame(this.frameSize);
        out.push(this.muxed!.take());
      }
    }
    return concatBytes(out);
  }

  async finish(): Promise<Uint8Array> {
    await (this.ready ??= this.init());
    // Push the lookahead's worth of zeros through, then pad the last frame and trim it in the granule.
    let flushZeros = this.lookahead;
    while (flushZeros > 0 || this.filled > 0) {
      const n = Math.min(flushZeros, this.frameSize - this.filled);
      this.frame.fill(0, this.filled, this.filled + n);
      this.filled += n;
      flushZeros -= n;
      if (this.filled === this.frameSize || flushZeros === 0) {
        const real = this.filled;
        this.frame.fill(0, this.filled);
        await this.encodeFrame(real);
      }
    }
    this.source!.close();
    const rest = await this.muxed!.finalize();
    this.close();
    return rest;
  }

  close(): void {
    if (this.handler && this.m) {
      this.m.OpusScriptHandler.destroy_handler(this.handler);
      this.m._free(this.inPtr);
      this.m._free(this.outPtr);
      this.handler = undefined;
    }
    this.muxed?.cancel();
  }

  private async init(): Promise<void> {
    this.mb = await this.modules.mediabunnyWithMp3();
    const m = (this.m = this.modules.opusModule());
    const application = this.spec.quality === 'phone' ? APPLICATION.voip : APPLICATION.audio;
    this.handler = new m.OpusScriptHandler(this.spec.sampleRate, 1, application);
    this.inPtr = m._malloc(this.frameSize * 4);
    this.outPtr = m._malloc(MAX_PACKET_BYTES);
    this.ctl(CTL.setBitrate, OPUS_BITRATES[this.spec.quality]);
    this.ctl(CTL.setComplexity, OPUS_COMPLEXITY);
    const lookaheadPtr = m._malloc(4);
    try {
      this.ctl(CTL.getLookahead, lookaheadPtr);
      this.lookahead = m.HEAP32[lookaheadPtr >> 2]!;
    } finally {
      m._free(lookaheadPtr);
    }
    this.muxed = new MuxedOutput(this.mb, new this.mb.OggOutputFormat({ maximumPageDuration: 0.5 }));
    this.source = new this.mb.EncodedAudioPacketSource('opus');
    this.muxed.output.addAudioTrack(this.source);
    await this.muxed.output.start();
  }

  private ctl(request: number, arg: number): void {
    const code = this.handler!._encoder_ctl(request, arg);
    if (code < 0) throw new Error(`opus encoder ctl ${request} failed with code ${code}`);
  }

  /** Encodes `this.frame` as one packet whose first `realSamples` samples count (the rest is padding). */
  private async encodeFrame(realSamples: number): Promise<void> {
    const m = this.m!;
    const slots = m.HEAPU16;
    const base = this.inPtr >> 1;
    for (let i = 0; i < this.frameSize; i++) {
      const s = floatToInt16(this.frame[i]!);
      slots[base + 2 * i] = s & 0xff;
      slots[base + 2 * i + 1] = (s >> 8) & 0xff;
    }
    const length = this.handler!._encode(this.inPtr, this.frameSize * 2, this.outPtr, this.frameSize);
    if (length < 0) throw new Error(`opus encode failed with code ${length}`);
    const data = m.HEAPU8.slice(this.outPtr, this.outPtr + length);
    const timestamp = (this.packets * FRAME_MS) / 1000;
    const duration = realSamples / this.spec.sampleRate;
    const packet = new this.mb!.EncodedPacket(data, 'key', timestamp, duration);
    const meta =
      this.packets === 0
        ? {
            decoderConfig: {
              codec: 'opus',
              numberOfChannels: 1,
              sampleRate: OPUS_RATE,
              description: opusHead((this.lookahead * OPUS_RATE) / this.spec.sampleRate, this.spec.sampleRate),
            },
          }
        : undefined;
    this.packets++;
    this.filled = 0;
    await this.source!.add(packet, meta);
  }
}
