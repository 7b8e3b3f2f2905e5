import type { JSONPath as JSONPathFn } from 'jsonpath-plus';
import { isDestinationRefused, type WebhookTransport } from '../ports/webhook-transport';

/** Bytes of a source's answer read (the rest is dropped): a data node reads a small JSON document. */
export const MAX_SOURCE_BYTES = 256 * 1024;
export const DEFAULT_TIMEOUT_MS = 5000;

/** One call of a data node's source, its parameters already filled from the answers. */
export interface DataCall {
  url: string;
  method: 'GET' | 'POST';
  params: Record<string, string>;
  secret: [string, string] | null;
  timeoutMs: number;
  mapping: Record<string, string>;
}

/** What a call gave: the mapped values, or why it failed (never the secret). */
export type DataOutcome =
  | { status: 'ok'; http_status: number; variables: Record<string, unknown>; hidden: Record<string, string>; body: unknown }
  | { status: 'failed'; http_status: number | null; error: string; variables: Record<string, unknown>; hidden: Record<string, string>; body?: unknown };

// jsonpath-plus loads with the first data node called, not with the server (docs/decisions.md "Steps the service runs").
let jsonPath: typeof JSONPathFn | null = null;
const loadJsonPath = () => (jsonPath ??= (require('jsonpath-plus') as typeof import('jsonpath-plus')).JSONPath);

/** A mapped value: one match as itself, several as a list, none as null; objects are not mapped. */
function pick(json: unknown, path: string): unknown {
  const found = loadJsonPath()({ path, json: json as object, wrap: true, eval: 'safe' }) as unknown[];
  const plain = found.filter((v) => v === null || ['string', 'number', 'boolean'].includes(typeof v));
  if (!plain.length) return null;
  return plain.length === 1 ? plain[0] : plain.map(String).join(', ');
}

/** Maps `var.<name>` and `hidden.<name>` targets from the JSON answer; hidden fields keep text. */
export function mapAnswer(json: unknown, mapping: Record<string, string>): { variables: Record<string, unknown>; hidden: Record<string, string> } {
  const variables: Record<string, unknown> = {};
  const hidden: Record<string, string> = {};
  for (const [target, path] of Object.entries(mapping)) {
    const value = pick(json, path);
    const [kind, name] = [target.slice(0, target.indexOf('.')), target.slice(target.indexOf('.') + 1)];
    if (kind === 'var') variables[name] = value;
    else if (value !== null) hidden[name] = String(value).slice(0, 2000);
  }
  return { variables, hidden };
}

/**
 * Calls a source through the instance's webhook transport (its private-address refusal, no redirects and
 * timeout: docs/security.md), GET with the parameters as the query or POST with them as JSON, and maps the
 * JSON answer. Any failure (refused, timed out, not 2xx, not JSON) is an outcome, for the node's fallback path.
 */
export async function callSource(transport: WebhookTransport, call: DataCall): Promise<DataOutcome> {
  const failed = (error: string, http_status: number | null = null, body?: unknown): DataOutcome => ({ status: 'failed', http_status, error, variables: {}, hidden: {}, ...(body !== undefined ? { body } : {}) });
  if (!transport.request) return failed("This server's outgoing transport cannot make GET or POST calls");
  let url: URL;
  try {
    url = new URL(call.url);
  } catch {
    return failed('The source URL is not valid');
  }
  if (call.method === 'GET') for (const [k, v] of Object.entries(call.params)) url.searchParams.set(k, v);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (call.method === 'POST') headers['content-type'] = 'application/json';
  if (call.secret) headers[call.secret[0]] = call.secret[1];
  let answer;
  try {
    answer = await transport.request({
      url: url.href, method: call.method, headers, body: call.method === 'POST' ? JSON.stringify(call.params) : undefined, timeoutMs: call.timeoutMs, maxBodyBytes: MAX_SOURCE_BYTES,
    });
  } catch (e) {
    if (isDestinationRefused(e)) return failed('The source is on a private or refused address');
    return failed(`The source did not answer in time or could not be reached (${e instanceof Error ? e.message : String(e)})`.slice(0, 300));
  }
  let json: unknown;
  try {
    json = JSON.parse(answer.body);
  } catch {
    return failed(`The source answered ${answer.status} without JSON`, answer.status);
  }
  if (answer.status < 200 || answer.status > 299) return failed(`The source answered ${answer.status}`, answer.status, json);
  try {
    return { status: 'ok', http_status: answer.status, ...mapAnswer(json, call.mapping), body: json };
  } catch (e) {
    return failed(`A JSONPath of the mapping is not valid (${e instanceof Error ? e.message : String(e)})`.slice(0, 300), answer.status, json);
  }
}
