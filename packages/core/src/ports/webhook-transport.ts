/** The outcome of one HTTP delivery attempt that got a response. */
export interface TransportResult {
  status: number;
}

/** Sends a signed webhook body. Implementations refuse private targets unless configured otherwise. */
export interface WebhookTransport {
  /**
   * POSTs `body` to `url` with `headers`. Resolves with the HTTP status of any response; rejects on a
   * network error, a refused (private) address, or after `timeoutMs`.
   */
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<TransportResult>;
}
