import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local server speaking the Airtable API call the plugin makes (docs/integrations.md, "Airtable"):
 * `POST /v0/{baseId}/{table}` creating records and `GET` listing them by a formula (a field equal to a text:
 * the look-up of a retry that may follow a record made already), with Airtable's error shape `{error: {type, message}}`. Field
 * values are checked against the table's field types as Airtable does, `typecast` included (text turned into
 * a number, a select option, a date). A base answers only the tokens given access to it. In memory, for tests.
 */

export type FieldType = 'singleLineText' | 'multilineText' | 'email' | 'url' | 'phoneNumber' | 'number' | 'checkbox' | 'singleSelect' | 'multipleSelects' | 'date' | 'multipleAttachments';

interface Table {
  id: string;
  name: string;
  fields: Record<string, FieldType>;
  options: Record<string, Set<string>>;
  records: Array<{ id: string; fields: Record<string, unknown> }>;
}

export interface AirtableCall {
  method: string;
  path: string;
  body: any;
}

const id = (prefix: string) => `${prefix}${randomBytes(10).toString('base64url').replace(/[^A-Za-z0-9]/g, 'x').slice(0, 14)}`;

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};
const error = (res: ServerResponse, status: number, type: string, message: string) => json(res, status, { error: { type, message } });

export class FakeAirtable {
  readonly calls: AirtableCall[] = [];
  readonly bases = new Map<string, { tokens: Set<string>; tables: Table[] }>();
  private forced: Array<{ status: number; type: string }> = [];

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeAirtable> {
    const server = createServer();
    const fake = new FakeAirtable(server);
    server.on('request', (req, res) => void fake.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return fake;
  }

  /** The SDK's `endpointUrl`. */
  get endpointUrl() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  /** A base with one table of `fields`, open to `tokens`; answers the table. */
  addTable(baseId: string, tokens: string[], name: string, fields: Record<string, FieldType>): Table {
    const base = this.bases.get(baseId) ?? { tokens: new Set(tokens), tables: [] };
    this.bases.set(baseId, base);
    const table = { id: id('tbl'), name, fields, options: {}, records: [] };
    base.tables.push(table);
    return table;
  }

  /** The next `count` requests answer `status` (Airtable's error type `type`). */
  fail(count: number, status: number, type: string) {
    for (let i = 0; i < count; i++) this.forced.push({ status, type });
  }

  /** The value Airtable stores for `v` in a field of `type`, or an error message. */
  private convert(table: Table, name: string, type: FieldType, v: unknown, typecast: boolean): { value: unknown } | { error: string } {
    const bad = { error: `Field "${name}" cannot accept the provided value` };
    switch (type) {
      case 'number': {
        const n = typeof v === 'number' ? v : typecast && typeof v === 'string' ? Number(v) : NaN;
        return Number.isFinite(n) ? { value: n } : bad;
      }
      case 'checkbox':
        return typeof v === 'boolean' ? { value: v } : bad;
      case 'singleSelect':
      case 'multipleSelects': {
        const names = type === 'singleSelect' ? (typeof v === 'string' ? [v] : null) : Array.isArray(v) ? v : typecast && typeof v === 'string' ? v.split(',').map((s) => s.trim()) : null;
        if (!names || !names.every((n) => typeof n === 'string')) return bad;
        const known = (table.options[name] ??= new Set());
        const unknown = names.filter((n) => !known.has(n));
        if (unknown.length && !typecast) return { error: `Insufficient permissions to create new select option ""${unknown[0]}""` };
        unknown.forEach((n) => known.add(n));
        return { value: type === 'singleSelect' ? names[0] : names };
      }
      case 'date':
        return typeof v === 'string' && (typecast || /^\d{4}-\d{2}-\d{2}$/.test(v)) && !Number.isNaN(Date.parse(v)) ? { value: new Date(v).toISOString().slice(0, 10) } : bad;
      case 'multipleAttachments':
        return Array.isArray(v) && v.every((a) => typeof a?.url === 'string' && /^https?:\/\//.test(a.url)) ? { value: v.map((a) => ({ id: id('att'), url: a.url, filename: a.filename ?? 'file' })) } : bad;
      default:
        return typeof v === 'string' ? { value: v } : typecast && typeof v === 'number' ? { value: String(v) } : bad;
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.endpointUrl);
    const body = text ? JSON.parse(text) : undefined;
    this.calls.push({ method: req.method ?? '', path: decodeURIComponent(url.pathname), body });
    const forced = this.forced.shift();
    if (forced) return error(res, forced.status, forced.type, `Forced ${forced.type}`);
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token?.startsWith('pat')) return error(res, 401, 'AUTHENTICATION_REQUIRED', 'Authentication required');
    const m = /^\/v0\/([^/]+)\/([^/]+)\/?$/.exec(url.pathname);
    if ((req.method !== 'POST' && req.method !== 'GET') || !m) return error(res, 404, 'NOT_FOUND', 'Could not find what you are looking for');
    const base = this.bases.get(m[1]!);
    if (!base || !base.tokens.has(token)) return error(res, 403, 'INVALID_PERMISSIONS_OR_MODEL_NOT_FOUND', 'Invalid permissions, or the requested model was not found.');
    const tableName = decodeURIComponent(m[2]!);
    const table = base.tables.find((t) => t.id === tableName || t.name === tableName);
    if (!table) return error(res, 404, 'TABLE_NOT_FOUND', `Could not find table ${tableName} in application ${m[1]}`);
    if (req.method === 'GET') {
      // List records: the one formula the plugin sends, a field equal to a text (`{Field} = 'value'`).
      const formula = url.searchParams.get('filterByFormula') ?? '';
      const f = /^\{([^}]+)\} = '((?:[^'\\]|\\.)*)'$/.exec(formula);
      if (!f) return error(res, 422, 'INVALID_FILTER_BY_FORMULA', `The formula for filtering records is invalid: ${formula}`);
      if (!table.fields[f[1]!]) return error(res, 422, 'INVALID_FILTER_BY_FORMULA', `Unknown field names: ${f[1]}`);
      const value = f[2]!.replace(/\\(.)/g, '$1');
      const max = Number(url.searchParams.get('maxRecords') ?? 100);
      const records = table.records.filter((r) => r.fields[f[1]!] === value).slice(0, max);
      return json(res, 200, { records: records.map((r) => ({ id: r.id, createdTime: new Date().toISOString(), fields: r.fields })) });
    }
    // One record as `{fields}`, or up to 10 as `{records: [{fields}]}`.
    const records = body?.records ?? (body?.fields ? [{ fields: body.fields }] : null);
    if (!Array.isArray(records) || records.length < 1 || records.length > 10) return error(res, 422, 'INVALID_RECORDS', 'records must be an array of 1 to 10 records');
    const made = [];
    for (const r of records) {
      const fields: Record<string, unknown> = {};
      for (const [name, v] of Object.entries<unknown>(r.fields ?? {})) {
        const type = table.fields[name];
        if (!type) return error(res, 422, 'UNKNOWN_FIELD_NAME', `Unknown field name: "${name}"`);
        const out = this.convert(table, name, type, v, body.typecast === true);
        if ('error' in out) return error(res, 422, 'INVALID_VALUE_FOR_COLUMN', out.error);
        fields[name] = out.value;
      }
      made.push({ id: id('rec'), createdTime: new Date().toISOString(), fields });
    }
    table.records.push(...made);
    return json(res, 200, body.records ? { records: made } : made[0]);
  }
}
