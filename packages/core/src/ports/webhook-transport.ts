/** The outcome of one HTTP delivery attempt that got a response. */
export interface TransportResult {
  /** The response's HTTP status, whatever it is (a redirect is not followed). */
  status: number;
}

/**
 * Sends a signed webhook body. Implementations refuse private targets unless configured otherwise: a
 * destination on a loopback, private, link-local, CGNAT, multicast or otherwise non-public address (IPv4,
 * IPv6, and IPv4-mapped IPv6), given literally or as a host name that resolves to one, is refused before
 * any byte is sent, unless the host allows private targets (`FORMLOOM_WEBHOOK_ALLOW_PRIVATE=1`).
 */
export interface WebhookTransport {
  /**
   * POSTs `body` to `url` (http or https) with `headers` and a `Content-Length`. Redirects are not
   * followed.
   * @returns the HTTP status of any response, 2xx or not.
   * @throws (rejects) on an invalid or non-http(s) URL, a network error, after `timeoutMs` without a
   * response, or for a refused private address; a refusal's message starts with `Refused`.
   */
  post(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<TransportResult>;
}
