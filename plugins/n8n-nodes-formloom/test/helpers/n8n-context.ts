import type { ICredentialType, IDataObject, IExecuteFunctions, IHookFunctions, IHttpRequestOptions, ILoadOptionsFunctions, INodeExecutionData, IWebhookFunctions } from 'n8n-workflow';
import { FormloomApi } from '../../src/credentials/FormloomApi.credentials';

/*
 * A minimal stand-in for the execution context n8n hands a node (`this` in execute, webhook, the webhook
 * methods and loadOptions): the node's parameters, its credentials applied as the credential type declares
 * (its `authenticate` headers, n8n expressions evaluated), HTTP through fetch (a non-2xx answer throws with
 * `httpCode`, as n8n's NodeApiError does), the workflow's static data and the webhook's body. It is the true
 * boundary between the nodes and n8n: only what the nodes call is there.
 */

export interface FakeN8nOptions {
  credentials: { baseUrl: string; apiKey: string };
  parameters?: Record<string, unknown>;
  items?: IDataObject[];
  /** The workflow's static data (kept by the caller between calls, as n8n keeps it). */
  staticData?: IDataObject;
  webhookUrl?: string;
  /** The body of the request the webhook received. */
  body?: unknown;
  continueOnFail?: boolean;
}

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** `={{ ... }}` and `{{ ... }}` pieces of an n8n expression evaluated with `$credentials` in scope. */
export function evaluate(value: string, credentials: IDataObject): string {
  if (!value.startsWith('=')) return value;
  return value.slice(1).replace(/\{\{(.+?)\}\}/g, (_, expr: string) => String(new Function('$credentials', `return (${expr});`)(credentials)));
}

/** The request with the credential type's `authenticate` applied (generic: headers, query string). */
export function authenticated(type: ICredentialType, credentials: IDataObject, options: IHttpRequestOptions): IHttpRequestOptions {
  const auth = type.authenticate;
  if (!auth || typeof auth === 'function') throw new Error('the fake applies only generic authentication');
  const headers: IDataObject = { ...(options.headers ?? {}) };
  for (const [k, v] of Object.entries(auth.properties.headers ?? {})) headers[k] = evaluate(String(v), credentials);
  const qs: IDataObject = { ...(options.qs ?? {}) };
  for (const [k, v] of Object.entries(auth.properties.qs ?? {})) qs[k] = evaluate(String(v), credentials);
  return { ...options, headers, qs };
}

/** Sends `options` as n8n's httpRequest does with `json: true`: JSON in, JSON out, a non-2xx answer thrown. */
export async function httpRequest(options: IHttpRequestOptions, log: RecordedRequest[]): Promise<unknown> {
  // As n8n's axios does: a relative `url` goes after `baseURL` (which keeps its own path, e.g. /api/v1).
  const url = new URL(options.baseURL && !/^https?:/i.test(options.url) ? `${options.baseURL.replace(/\/+$/, '')}/${options.url.replace(/^\/+/, '')}` : options.url);
  for (const [k, v] of Object.entries(options.qs ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k, String(v)]));
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const method = options.method ?? 'GET';
  log.push({ method, url: url.href, headers });
  const res = await fetch(url, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const body = text ? JSON.parse(text) : {};
  if (!res.ok) throw Object.assign(new Error(`${res.status} - ${text}`), { httpCode: String(res.status), response: { status: res.status, body } });
  return body;
}

/** One context object serving every kind of `this` the nodes use. */
export function n8nContext(o: FakeN8nOptions) {
  const requests: RecordedRequest[] = [];
  const credentialType = new FormloomApi();
  const staticData = o.staticData ?? {};
  const context = {
    requests,
    staticData,
    getNode: () => ({ name: 'Formloom', type: 'formloom', typeVersion: 1, parameters: o.parameters ?? {} }),
    getInputData: (): INodeExecutionData[] => (o.items ?? [{}]).map((json) => ({ json })),
    getNodeParameter(name: string, _item?: number | unknown, fallback?: unknown) {
      const params = o.parameters ?? {};
      const item = typeof _item === 'number' ? _item : 0;
      const v = name in params ? params[name] : fallback;
      if (v === undefined) throw new Error(`Could not get parameter "${name}" (item ${item})`);
      return v;
    },
    getCredentials: async (type: string) => {
      if (type !== credentialType.name) throw new Error(`no credentials of type ${type}`);
      return { ...o.credentials };
    },
    continueOnFail: () => o.continueOnFail ?? false,
    getWorkflowStaticData: () => staticData,
    getNodeWebhookUrl: () => o.webhookUrl,
    getBodyData: () => o.body as IDataObject,
    getHeaderData: () => ({}),
    helpers: {
      returnJsonArray: (data: IDataObject | IDataObject[]) => (Array.isArray(data) ? data : [data]).map((json) => ({ json })),
      async httpRequestWithAuthentication(this: unknown, type: string, options: IHttpRequestOptions) {
        if (type !== credentialType.name) throw new Error(`no credentials of type ${type}`);
        return httpRequest(authenticated(credentialType, o.credentials as unknown as IDataObject, options), requests);
      },
    },
  };
  return context as typeof context & IExecuteFunctions & IHookFunctions & IWebhookFunctions & ILoadOptionsFunctions;
}

/** Runs the credential type's own test request, as n8n's "Test" button does. */
export async function testCredentials(credentials: { baseUrl: string; apiKey: string }): Promise<unknown> {
  const type = new FormloomApi();
  const request = type.test!.request;
  const creds = credentials as unknown as IDataObject;
  const options: IHttpRequestOptions = { ...request, url: request.url ?? '', baseURL: evaluate(String(request.baseURL ?? ''), creds) } as IHttpRequestOptions;
  return httpRequest(authenticated(type, creds, options), []);
}
