import { Agent } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { undecodedRequest } from '@formloom/test-browser';

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

  async send(url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<HttpAnswer> {
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br', ...lowerKeys(init.headers) };
    if (init.body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(init.body));
    const res = await undecodedRequest(url, headers, init.method, { body: init.body, agent: this.agent });
    // Every line as sent, as fetch gives them: a repeated header reaches the test.
    const answer = new Headers();
    for (let i = 0; i < res.rawHeaders.length; i += 2) answer.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    return { status: res.status, headers: answer, text: decode(res.body, answer.get('content-encoding')).toString('utf8') };
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
