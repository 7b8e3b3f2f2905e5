import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local server speaking the Notion API calls the plugin makes (docs/integrations.md, "Notion"), version
 * 2025-09-03: databases.retrieve (its data sources), data_sources.retrieve (the properties), data_sources.query
 * (a text property equal to a value: the look-up of a retry that may follow a page made already) and pages.create,
 * with Notion's error shape `{object: "error", status, code, message}`. A page's properties are checked as
 * Notion checks them: each must exist and be given in its type's shape; a select option may be new but has
 * no comma. A database answers only the integration tokens it was shared with. In memory, for tests only.
 */

export interface FakeProperty {
  type: string;
}

interface Database {
  id: string;
  dataSourceId: string;
  properties: Record<string, FakeProperty>;
  sharedWith: Set<string>;
  pages: Array<{ id: string; properties: Record<string, any> }>;
}

export interface NotionCall {
  method: string;
  path: string;
  version: string | undefined;
  body: any;
}

const READ_ONLY = new Set(['formula', 'rollup', 'created_time', 'created_by', 'last_edited_time', 'last_edited_by', 'unique_id']);

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};
const error = (res: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json(res, status, { object: 'error', status, code, message, request_id: randomUUID() }, headers);

/** Why a property value does not fit its type, or null when it does. */
function problem(type: string, value: any): string | null {
  if (!value || typeof value !== 'object' || !(type in value)) return `should be defined as a ${type} value`;
  const v = value[type];
  const texts = (a: any) => Array.isArray(a) && a.length <= 100 && a.every((t) => typeof t?.text?.content === 'string' && t.text.content.length <= 2000);
  switch (type) {
    case 'title':
    case 'rich_text':
      return texts(v) ? null : 'should be an array of at most 100 text objects of at most 2000 characters';
    case 'number':
      return typeof v === 'number' ? null : 'should be a number';
    case 'select':
    case 'status':
      return typeof v?.name === 'string' && !v.name.includes(',') ? null : 'option names cannot contain commas';
    case 'multi_select':
      return Array.isArray(v) && v.every((o) => typeof o?.name === 'string' && !o.name.includes(',')) ? null : 'option names cannot contain commas';
    case 'date':
      return typeof v?.start === 'string' && !Number.isNaN(Date.parse(v.start)) ? null : 'should be a date';
    case 'checkbox':
      return typeof v === 'boolean' ? null : 'should be a boolean';
    case 'email':
    case 'phone_number':
    case 'url':
      return typeof v === 'string' || v === null ? null : 'should be a string';
    case 'files':
      return Array.isArray(v) && v.every((f) => f?.type === 'external' && /^https?:\/\//.test(f.external?.url ?? '')) ? null : 'should be external files';
    default:
      return `cannot be set (${type})`;
  }
}

export class FakeNotion {
  readonly calls: NotionCall[] = [];
  readonly databases = new Map<string, Database>();
  private forced: Array<{ status: number; code: string; headers: Record<string, string> }> = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeNotion> {
    const server = createServer();
    const fake = new FakeNotion(server);
    server.on('request', (req, res) => void fake.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return fake;
  }

  /** The SDK's `baseUrl`. */
  get baseUrl() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  /** A database (one data source) with `properties`, shared with the integrations of `tokens`. */
  addDatabase(id: string, tokens: string[], properties: Record<string, FakeProperty>): Database {
    const db = { id, dataSourceId: randomUUID(), properties, sharedWith: new Set(tokens), pages: [] };
    this.databases.set(id, db);
    return db;
  }

  /** The next `count` requests answer `status` with `code` (and `headers`). */
  fail(count: number, status: number, code: string, headers: Record<string, string> = {}) {
    for (let i = 0; i < count; i++) this.forced.push({ status, code, headers });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.baseUrl);
    const body = text ? JSON.parse(text) : undefined;
    const version = req.headers['notion-version'] as string | undefined;
    this.calls.push({ method: req.method ?? '', path: url.pathname, version, body });
    const forced = this.forced.shift();
    if (forced) return error(res, forced.status, forced.code, `Forced ${forced.code}`, forced.headers);
    if (!version) return error(res, 400, 'missing_version', 'Notion-Version header failed validation: Notion-Version header should be defined.');
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !token.startsWith('ntn_')) return error(res, 401, 'unauthorized', 'API token is invalid.');
    const visible = (db: Database | undefined) => (db && db.sharedWith.has(token) ? db : undefined);
    let m: RegExpExecArray | null;
    if (req.method === 'GET' && (m = /^\/v1\/databases\/([^/]+)$/.exec(url.pathname))) {
      const db = visible(this.databases.get(m[1]!));
      if (!db) return error(res, 404, 'object_not_found', `Could not find database with ID: ${m[1]}. Make sure the relevant pages and databases are shared with your integration.`);
      return json(res, 200, { object: 'database', id: db.id, title: [], data_sources: [{ id: db.dataSourceId, name: 'Responses' }] });
    }
    if (req.method === 'GET' && (m = /^\/v1\/data_sources\/([^/]+)$/.exec(url.pathname))) {
      const db = visible([...this.databases.values()].find((d) => d.dataSourceId === m![1]));
      if (!db) return error(res, 404, 'object_not_found', `Could not find data_source with ID: ${m[1]}.`);
      const properties = Object.fromEntries(Object.entries(db.properties).map(([name, p], i) => [name, { id: `p${i}`, name, type: p.type, [p.type]: {} }]));
      return json(res, 200, { object: 'data_source', id: db.dataSourceId, properties });
    }
    if (req.method === 'POST' && (m = /^\/v1\/data_sources\/([^/]+)\/query$/.exec(url.pathname))) {
      // The one filter the plugin sends: a text property equal to a value.
      const db = visible([...this.databases.values()].find((d) => d.dataSourceId === m![1]));
      if (!db) return error(res, 404, 'object_not_found', `Could not find data_source with ID: ${m[1]}.`);
      const f = body?.filter;
      if (!f?.property || typeof f.rich_text?.equals !== 'string') return error(res, 400, 'validation_error', 'body failed validation: body.filter should be a rich_text filter.');
      if (db.properties[f.property]?.type !== 'rich_text') return error(res, 400, 'validation_error', `Could not find property with name or id: ${f.property}`);
      const plain = (v: any) => (v?.rich_text ?? []).map((t: any) => t.text.content).join('');
      const results = db.pages.filter((p) => plain(p.properties[f.property]) === f.rich_text.equals).slice(0, body.page_size ?? 100);
      return json(res, 200, { object: 'list', results: results.map((p) => ({ object: 'page', id: p.id, url: `https://www.notion.so/${p.id.replace(/-/g, '')}` })), has_more: false, next_cursor: null });
    }
    if (req.method === 'POST' && url.pathname === '/v1/pages') {
      const db = visible([...this.databases.values()].find((d) => d.dataSourceId === body?.parent?.data_source_id));
      if (!db) return error(res, 404, 'object_not_found', `Could not find data_source with ID: ${body?.parent?.data_source_id}.`);
      for (const [name, value] of Object.entries<any>(body.properties ?? {})) {
        const prop = db.properties[name];
        if (!prop) return error(res, 400, 'validation_error', `${name} is not a property that exists.`);
        if (READ_ONLY.has(prop.type)) return error(res, 400, 'validation_error', `${name} is a ${prop.type} property and cannot be set.`);
        const why = problem(prop.type, value);
        if (why) return error(res, 400, 'validation_error', `body failed validation: body.properties.${name} ${why}.`);
      }
      const page = { id: randomUUID(), properties: body.properties };
      db.pages.push(page);
      return json(res, 200, { object: 'page', id: page.id, url: `https://www.notion.so/${page.id.replace(/-/g, '')}`, properties: page.properties });
    }
    return error(res, 400, 'invalid_request_url', `Invalid request URL: ${req.method} ${url.pathname}`);
  }
}
