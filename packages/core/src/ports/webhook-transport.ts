/** The outcome of one HTTP delivery attempt that got a response. */
export interface TransportResult {
  status: number;
}

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

/** Sends a signed webhook body. Implementations refuse private targets unless configured otherwise. */
export interface WebhookTransport {
  /**
   * POSTs `body` to `url` with `headers`. Resolves with the HTTP status of any response (redirects are
   * not followed); rejects on a network error or after `timeoutMs`, and with a DestinationRefusedError
   * for a destination it will not connect to.
   */
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<TransportResult>;
}
