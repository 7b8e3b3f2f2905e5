import type { FormloomConfig } from '../config';
import { RESPONSE_EXCERPT_BYTES, type WebhookTransport } from '../ports/webhook-transport';
import type { IntegrationHttp, OutgoingAnswer, OutgoingRequest } from './integration-types';

/** Bytes of an answer's body `ctx.http` reads (an SDK reads the JSON it asked for; the rest is dropped). */
export const MAX_ANSWER_BYTES = 1024 * 1024;

type HeadersInit = ConstructorParameters<typeof Headers>[0];
type BodyInit = NonNullable<ConstructorParameters<typeof Response>[0]>;

function headersOf(h: HeadersInit | undefined): Record<string, string> {
  if (!h) return {};
  const out: Record<string, string> = {};
  new Headers(h).forEach((v, k) => (out[k] = v));
  return out;
}

async function bodyOf(body: BodyInit | null | undefined, headers: Record<string, string>): Promise<string | Uint8Array | undefined> {
  if (body == null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded;charset=UTF-8';
    return body.toString();
  }
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  // Blobs, streams and form data: let the platform serialize them (its content type included).
  const r = new Response(body as BodyInit);
  const type = r.headers.get('content-type');
  if (type) headers['content-type'] ??= type;
  return new Uint8Array(await r.arrayBuffer());
}

/**
 * `ctx.http` of an integration: every request goes through the instance's webhook transport, so the
 * private-address guard and the no-redirect rule of webhooks apply (docs/security.md). `transport` is read
 * per request: the instance's adapter may be chosen after the registry is built.
 */
export function integrationHttp(transport: () => WebhookTransport, config: FormloomConfig): IntegrationHttp {
  const request = async (req: OutgoingRequest): Promise<OutgoingAnswer> => {
    const t = transport();
    const method = req.method ?? 'POST';
    const timeoutMs = req.timeoutMs ?? config.webhookTimeoutMs;
    const headers = req.headers ?? {};
    if (t.request) return t.request({ url: req.url, method, headers, body: req.body, timeoutMs, maxBodyBytes: MAX_ANSWER_BYTES });
    if (method !== 'POST') throw new Error(`This instance's webhook transport sends only POST requests (it has no \`request\` method), not ${method}`);
    const body = typeof req.body === 'string' || req.body === undefined ? (req.body ?? '') : Buffer.from(req.body).toString('utf8');
    const answer = await t.post(req.url, body, headers, timeoutMs);
    return { status: answer.status, headers: {}, body: answer.body?.slice(0, RESPONSE_EXCERPT_BYTES) ?? '' };
  };
  return {
    request,
    postJson: (url, value, headers = {}) => request({ url, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) }),
    async fetch(input, init = {}) {
      const asRequest = input instanceof Request ? input : null;
      const url = asRequest ? asRequest.url : String(input);
      const headers = { ...headersOf(asRequest?.headers), ...headersOf(init.headers) };
      const method = String(init.method ?? asRequest?.method ?? 'GET').toUpperCase() as OutgoingRequest['method'];
      const body = init.body !== undefined ? await bodyOf(init.body, headers) : asRequest?.body ? new Uint8Array(await asRequest.arrayBuffer()) : undefined;
      const answer = await request({ url, method, headers, body });
      const empty = answer.status === 204 || answer.status === 205 || answer.status === 304 || method === ('HEAD' as string);
      const status = answer.status >= 200 && answer.status <= 599 ? answer.status : 502;
      return new Response(empty ? null : answer.body, { status, headers: answer.headers });
    },
  };
}
