import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake server received it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

/**
 * How the fake answers one request: `pcm` (the default) streams a sine as raw 24 kHz s16le PCM, 60 ms per
 * letter divided by `speed`, in a few pieces of odd sizes; `status` answers that status with an OpenAI-style
 * JSON error; `hang` never answers; `stall` sends 0.1 s of PCM, then nothing; `json` answers 200 with JSON
 * (a server that ignored `pcm`).
 */
export type FakeBehaviour =
  | { kind: 'pcm' }
  | { kind: 'status'; status: number; message: string; headers?: Record<string, string> }
  | { kind: 'hang' }
  | { kind: 'stall' }
  | { kind: 'json' };

export interface FakeSpeechServer {
  /** `http://127.0.0.1:<port>/v1` */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Requests whose answer has not finished or been closed by the client. */
  open(): number;
  /** Chooses the answer per request (default: PCM for everything). */
  behave(choose: (request: RecordedRequest) => FakeBehaviour): void;
  close(): Promise<void>;
}

export const FAKE_RATE = 24_000;

/** The PCM the fake makes for a text: what a request's answer must decode to. */
export function fakePcm(input: string, voice: string, speed: number): Int16Array {
  const letters = (input.match(/[\p{L}\p{N}]/gu) ?? []).length;
  const samples = new Int16Array(Math.round((letters * 0.06 * FAKE_RATE) / speed));
  const frequency = 200 + (voice.length % 7) * 50;
  for (let i = 0; i < samples.length; i++) {
    samples[i] = Math.round(12000 * Math.sin((2 * Math.PI * frequency * i) / FAKE_RATE));
  }
  return samples;
}

export async function startFakeSpeechServer(): Promise<FakeSpeechServer> {
  const requests: RecordedRequest[] = [];
  let open = 0;
  let choose: (request: RecordedRequest) => FakeBehaviour = () => ({ kind: 'pcm' });
  const server = createServer((req, res) => {
    open += 1;
    res.on('close', () => {
      open -= 1;
    });
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      answer(res, recorded, choose(recorded));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    open: () => open,
    behave: (next) => {
      choose = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: ServerResponse, request: RecordedRequest, behaviour: FakeBehaviour): void {
  if (request.method !== 'POST' || request.path !== '/v1/audio/speech') {
    behaviour = { kind: 'status', status: 404, message: `no route ${request.path}` };
  }
  if (behaviour.kind === 'hang') return;
  if (behaviour.kind === 'stall') {
    res.writeHead(200, { 'content-type': 'audio/pcm' });
    res.write(Buffer.alloc(4800, 1));
    return;
  }
  if (behaviour.kind === 'status') {
    res.writeHead(behaviour.status, { 'content-type': 'application/json', ...behaviour.headers });
    res.end(JSON.stringify({ error: { message: behaviour.message, type: 'invalid_request_error' } }));
    return;
  }
  if (behaviour.kind === 'json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ audio: 'base64...' }));
    return;
  }
  const { input, voice, speed } = request.body;
  const pcm = fakePcm(String(input ?? ''), String(voice ?? ''), Number(speed ?? 1));
  const bytes = Buffer.alloc(pcm.length * 2);
  pcm.forEach((sample, i) => bytes.writeInt16LE(sample, i * 2));
  res.writeHead(200, { 'content-type': 'audio/pcm' });
  // Odd-sized pieces, a macrotask apart, so the client must stream and re-align samples across reads.
  const pieces = [0, ...[1001, 4999, 20001].filter((at) => at < bytes.length), bytes.length];
  let at = 0;
  const writeNext = () => {
    if (res.destroyed) return;
    at += 1;
    if (at >= pieces.length) {
      res.end();
      return;
    }
    res.write(bytes.subarray(pieces[at - 1], pieces[at]));
    setImmediate(writeNext);
  };
  writeNext();
}
