/** The outcome of one HTTP delivery attempt that got a response. */
export interface TransportResult {
  /** The response's HTTP status, whatever it is (a redirect is not followed). */
  status: number;
  /**
   * The start of the response body as UTF-8 text: at least the first RESPONSE_EXCERPT_BYTES bytes when the
   * body is that long (a transport need read no further), for the delivery log. Absent: not read.
   */
  body?: string;
}

/** How many bytes of a receiver's answer a transport reads for the delivery log (the rest is discarded). */
export const RESPONSE_EXCERPT_BYTES = 2048;

/**
 * Thrown (rejected) by a transport that will not connect to a destination at all (a private address, an
 * unsupported scheme): such a delivery fails at once instead of being retried for a day.
 */
export class DestinationRefusedError extends Error {
  readonly code = 'DESTINATION_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefusedError';
  }
}

/** Whether `e` says the destination was refused (also across package copies, by its `code`). */
export const isDestinationRefused = (e: unknown): boolean =>
  e instanceof DestinationRefusedError || (typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'DESTINATION_REFUSED');

/**
 * Sends a signed webhook body. Implementations refuse private targets unless configured otherwise: a
 * destination on a loopback, private, link-local, CGNAT, multicast or otherwise non-public address (IPv4,
 * IPv6, and IPv4-mapped IPv6), given literally or as a host name that resolves to one, is refused before
 * any byte is sent, unless the host allows private targets (`FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1`).
 */
export interface WebhookTransport {
  /**
   * POSTs `body` to `url` (http or https) with `headers` and a `Content-Length`. Redirects are not
   * followed, so a public receiver cannot bounce a delivery to an internal one.
   * @returns the HTTP status of any response, 2xx or not.
   * @throws (rejects) on a network error or after `timeoutMs` without a response; with a
   * `DestinationRefusedError` (`isDestinationRefused`) for a destination it will not connect to: a refused
   * private address, an invalid or non-http(s) URL.
   */
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<TransportResult>;
  /**
   * Sends any request under the same rules (refused destinations, no redirects, `timeoutMs`): what
   * integrations send through `ctx.http` (docs/integrations.md). Optional: without it, integrations can only
   * POST (through `post`, reading the start of the answer).
   * @returns the status, the headers (lower-case names) and the body as UTF-8 text, at most `maxBodyBytes`.
   */
  request?(req: TransportRequest): Promise<TransportAnswer>;
}

/** A request for `WebhookTransport.request`. */
export interface TransportRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs: number;
  /** Bytes of the answer's body read (the rest is read and dropped). */
  maxBodyBytes: number;
}

/** The answer of `WebhookTransport.request`. */
export interface TransportAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}
