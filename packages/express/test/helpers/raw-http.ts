import { connect } from 'node:net';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface RawAnswer {
  /** 0 when the server closed the connection without answering. */
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The answer did not come within the time-out (a hang). */
  timedOut: boolean;
}

/**
 * Sends `head` and `body` byte for byte over a fresh connection (what fetch refuses to send: control
 * characters in part headers, lying Content-Length, truncated multipart), and reads the answer.
 * `end: false` leaves the connection open after the bytes (a client that stalls); `destroyAfter` cuts it.
 */
export function rawRequest(
  url: string,
  head: string,
  body: Buffer | string = '',
  opts: { timeoutMs?: number; destroyAfterSend?: boolean } = {},
): Promise<RawAnswer> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let done = false;
    const socket = connect(Number(port), hostname);
    const finish = (timedOut: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('utf8'), timedOut));
    };
    const timer = setTimeout(() => finish(true), opts.timeoutMs ?? 60_000);
    socket.on('connect', () => {
      socket.write(head.replace(/\r?\n/g, '\r\n') + '\r\n\r\n');
      socket.write(body, () => {
        if (opts.destroyAfterSend) finish(false);
      });
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => finish(false));
    socket.on('close', () => finish(false));
  });
}

function parse(text: string, timedOut: boolean): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  if (!text.startsWith('HTTP/1.1 ') || split < 0) return { status: 0, headers: {}, body: text, timedOut };
  const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') body = dechunk(body);
  return { status: Number(statusLine!.split(' ')[1]), headers, body, timedOut };
}

function dechunk(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; ) {
    const eol = s.indexOf('\r\n', i);
    const size = parseInt(s.slice(i, eol), 16);
    if (!size) break;
    out += s.slice(eol + 2, eol + 2 + size);
    i = eol + 2 + size + 2;
  }
  return out;
}

/** A multipart request head for `path` with `body`, over a connection closed after the answer. */
export function multipartHead(path: string, body: Buffer | string, boundary = 'B', extra = ''): string {
  const type = boundary ? `multipart/form-data; boundary=${boundary}` : 'multipart/form-data';
  return `POST ${path} HTTP/1.1\nHost: localhost\nConnection: close\nContent-Type: ${type}\nContent-Length: ${Buffer.byteLength(body)}${extra}`;
}

/** One file part, the way browsers write it; `disposition` replaces the default header line. */
export function filePart(boundary: string, filename: string, data: string, type = 'text/plain', disposition?: string): string {
  return `--${boundary}\r\n${disposition ?? `Content-Disposition: form-data; name="file"; filename="${filename}"`}\r\nContent-Type: ${type}\r\n\r\n${data}\r\n`;
}

/** Every file under `dir` (the blob store), so a test can see that nothing was left behind. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(p);
    }
  };
  walk(dir);
  return out;
}
