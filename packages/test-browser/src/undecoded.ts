import { request, type Agent } from 'node:http';

/** What a server sent, byte for byte: status, headers and the body as it crossed the wire. */
export interface UndecodedAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Every header line as sent, name and value in turn: Node's `headers` keeps one of a repeated content-type. */
  rawHeaders: string[];
  body: Buffer;
}

/**
 * A request whose answer is not decoded (fetch undoes `Content-Encoding` by itself), for tests of what the
 * server compresses: send `accept-encoding` in `headers` and decode the body yourself. `options.body` is sent as
 * is; `options.agent` keeps connections alive between requests.
 */
export function undecodedRequest(
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  options: { body?: string; agent?: Agent } = {},
): Promise<UndecodedAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, ...(options.agent && { agent: options.agent }) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
