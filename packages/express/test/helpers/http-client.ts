import { Agent, request } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/** An answer as `fetch` gives it to the tests: the status, the headers (a `Headers`) and the body as text. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/**
 * The test apps' own HTTP client: what `app.api` sends goes through `node:http` on kept-alive connections, asking
 * for compressed answers as `fetch` does and decoding them. `fetch` (undici) costs the test process about half a
 * millisecond of CPU more per request and a third of a second to load (docs/testing.md, "What keeps it cheap");
 * the tests make tens of thousands of such requests. Tests about the client side of HTTP itself keep `fetch` or
 * the raw socket.
 */
export class HttpClient {
  private readonly agent = new Agent({ keepAlive: true });

  send(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...lowerKeys(init.headers) };
    if (init.body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(init.body));
    return new Promise((resolve, reject) => {
      const req = request(url, { method: init.method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          try {
            const answer = new Headers();
            for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
            resolve({ status: res.statusCode!, headers: answer, text: decode(Buffer.concat(chunks), answer.get('content-encoding')).toString('utf8') });
          } catch (e) {
            reject(e);
          }
        });
      });
      req.on('error', reject);
      req.end(init.body);
    });
  }

  /** Closes the kept-alive connections (the app's server closes its side too). */
  close(): void {
    this.agent.destroy();
  }
}

function lowerKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) out[k.toLowerCase()] = v;
  return out;
}

/** The body as `fetch` reads it: decoded from each content coding the answer names, last applied first. */
function decode(body: Buffer, encoding: string | null): Buffer {
  if (!encoding || body.length === 0) return body;
  for (const coding of encoding.split(',').map((c) => c.trim().toLowerCase()).reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') body = gunzipSync(body);
    else if (coding === 'br') body = brotliDecompressSync(body);
    else if (coding === 'deflate') body = inflateSync(body);
    else if (coding !== 'identity') throw new Error(`an answer in an unknown content coding: ${coding}`);
  }
  return body;
}
