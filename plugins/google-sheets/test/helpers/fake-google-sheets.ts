import { once } from 'node:events';
import { createPublicKey, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local server speaking the Google calls the plugin makes (docs/integrations.md, "Google Sheets"): the
 * OAuth token endpoint's JWT-bearer grant (the assertion's RS256 signature checked against the service
 * account's public key) and the Sheets API's values.get (the first row, or one whole column), values.update and values.append, with Google's
 * error shapes. A spreadsheet answers only a service account it was shared with, as Google's does. Not for
 * production: everything is in memory.
 */

export type Cell = string | number;

interface Spreadsheet {
  sheets: Map<string, Cell[][]>;
  sharedWith: Set<string>;
}

/** An answer forced on the next API requests (`fail`): status, headers and Google's error body. */
interface Forced {
  status: number;
  headers: Record<string, string>;
  message: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const STATUS_NAMES: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL', 503: 'UNAVAILABLE' };

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(JSON.stringify(body));
};
const apiError = (res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) =>
  json(res, status, { error: { code: status, message, status: STATUS_NAMES[status] ?? 'UNKNOWN' } }, headers);

/** `'My sheet'!A1` as the sheet's name ('' for none) and the cells part. */
function splitRange(range: string): { sheet: string; cells: string } {
  const m = /^(?:'((?:[^']|'')+)'|([^!']+))!(.*)$/.exec(range);
  if (!m) return { sheet: '', cells: range };
  return { sheet: (m[1] ?? m[2] ?? '').replaceAll("''", "'"), cells: m[3]! };
}

const columnName = (n: number) => {
  let s = '';
  for (let i = n; i > 0; i = Math.floor((i - 1) / 26)) s = String.fromCharCode(65 + ((i - 1) % 26)) + s;
  return s;
};

export class FakeGoogleSheets {
  readonly calls: RecordedCall[] = [];
  readonly spreadsheets = new Map<string, Spreadsheet>();
  /** Access tokens issued, with the service account each belongs to. */
  readonly tokens = new Map<string, string>();
  tokenRequests = 0;
  private forced: Forced[] = [];
  private readonly publicKeys = new Map<string, ReturnType<typeof createPublicKey>>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<FakeGoogleSheets> {
    const server = createServer();
    const fake = new FakeGoogleSheets(server);
    server.on('request', (req, res) => void fake.handle(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return fake;
  }

  get url() {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The SDK's `rootUrl`. */
  get rootUrl() {
    return `${this.url}/`;
  }

  async close() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  /** A service account known to this fake: its key file as Google's console downloads it, with token_uri here. */
  serviceAccount(name = 'formloom'): { email: string; keyFile: string } {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const email = `${name}@formloom-test.iam.gserviceaccount.com`;
    this.publicKeys.set(email, publicKey);
    const keyFile = JSON.stringify({
      type: 'service_account',
      project_id: 'formloom-test',
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: email,
      client_id: '1234567890',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: `${this.url}/token`,
    });
    return { email, keyFile };
  }

  /** A spreadsheet with the given sheets (tabs), shared with `sharedWith`. */
  addSpreadsheet(id: string, sharedWith: string[], sheets: Record<string, Cell[][]> = { Sheet1: [] }) {
    this.spreadsheets.set(id, { sheets: new Map(Object.entries(sheets)), sharedWith: new Set(sharedWith) });
  }

  /** Another sheet (tab) in a spreadsheet, with `rows`. */
  addSheet(id: string, sheet: string, rows: Cell[][]) {
    this.spreadsheets.get(id)!.sheets.set(sheet, rows);
  }

  rows(id: string, sheet?: string): Cell[][] {
    const s = this.spreadsheets.get(id)!;
    return sheet ? s.sheets.get(sheet)! : [...s.sheets.values()][0]!;
  }

  /** The next `count` Sheets API requests answer `status` with Google's error shape (and `headers`). */
  fail(count: number, status: number, message = 'Forced failure', headers: Record<string, string> = {}) {
    for (let i = 0; i < count; i++) this.forced.push({ status, headers, message });
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'POST' && url.pathname === '/token') return this.token(text, res);
    const body = text && (req.headers['content-type'] ?? '').includes('json') ? JSON.parse(text) : text;
    this.calls.push({ method: req.method ?? '', path: decodeURIComponent(url.pathname), query: Object.fromEntries(url.searchParams), body });
    const forced = this.forced.shift();
    if (forced) return apiError(res, forced.status, forced.message, forced.headers);
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const account = auth && this.tokens.get(auth[1]!);
    if (!account) return apiError(res, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
    const m = /^\/v4\/spreadsheets\/([^/]+)\/values\/([^/]+?)(:append)?$/.exec(url.pathname);
    if (!m) return apiError(res, 404, `Not found: ${url.pathname}`);
    const doc = this.spreadsheets.get(decodeURIComponent(m[1]!));
    if (!doc) return apiError(res, 404, 'Requested entity was not found.');
    if (!doc.sharedWith.has(account)) return apiError(res, 403, 'The caller does not have permission');
    const range = decodeURIComponent(m[2]!);
    const { sheet, cells } = splitRange(range);
    const title = sheet || [...doc.sheets.keys()][0]!;
    const rows = doc.sheets.get(title);
    if (!rows) return apiError(res, 400, `Unable to parse range: ${range}`);
    const input = url.searchParams.get('valueInputOption');
    if (req.method === 'GET') {
      const column = /^([A-Z]+):\1$/.exec(cells);
      if (column) {
        // One whole column, as rows of one cell (the look-up of a retry that may follow a row appended already).
        let index = 0;
        for (const ch of column[1]!) index = index * 26 + (ch.charCodeAt(0) - 64);
        const values = rows.map((r) => [r[index - 1] ?? '']);
        return json(res, 200, { range: `'${title}'!${cells}`, majorDimension: 'ROWS', ...(values.length ? { values } : {}) });
      }
      if (cells !== '1:1') return apiError(res, 400, `The fake reads only the first row or a whole column, not ${cells}`);
      const first = rows[0]?.length ? [rows[0]] : undefined;
      return json(res, 200, { range: `'${title}'!A1:Z1`, majorDimension: 'ROWS', ...(first ? { values: first } : {}) });
    }
    if (input !== 'RAW' && input !== 'USER_ENTERED') return apiError(res, 400, "'valueInputOption' is required but not specified");
    const values = (body as { values?: Cell[][] })?.values;
    if (!Array.isArray(values)) return apiError(res, 400, 'Invalid JSON payload: values');
    if (req.method === 'PUT' && !m[3]) {
      if (cells !== 'A1') return apiError(res, 400, `The fake writes only from A1, not ${cells}`);
      values.forEach((v, i) => (rows[i] = [...v]));
      const width = Math.max(...values.map((v) => v.length));
      return json(res, 200, { spreadsheetId: m[1], updatedRange: `'${title}'!A1:${columnName(width)}${values.length}`, updatedRows: values.length, updatedColumns: width, updatedCells: width * values.length });
    }
    if (req.method === 'POST' && m[3]) {
      if (url.searchParams.get('insertDataOption') !== 'INSERT_ROWS') return apiError(res, 400, 'The fake expects insertDataOption=INSERT_ROWS');
      const start = rows.length + 1;
      rows.push(...values.map((v) => [...v]));
      const width = Math.max(...values.map((v) => v.length));
      const updatedRange = `'${title}'!A${start}:${columnName(width)}${start + values.length - 1}`;
      return json(res, 200, { spreadsheetId: m[1], tableRange: `'${title}'!A1:${columnName(width)}${start - 1}`, updates: { spreadsheetId: m[1], updatedRange, updatedRows: values.length, updatedColumns: width, updatedCells: width * values.length } });
    }
    return apiError(res, 404, `Not found: ${req.method} ${url.pathname}`);
  }

  /** The JWT-bearer grant: the assertion must be signed by a known service account, for Google's token URL. */
  private token(text: string, res: ServerResponse) {
    this.tokenRequests += 1;
    const form = new URLSearchParams(text);
    const bad = (description: string) => json(res, 400, { error: 'invalid_grant', error_description: description });
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return json(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
    const [head, payload, signature] = (form.get('assertion') ?? '').split('.');
    if (!head || !payload || !signature) return bad('Invalid JWT.');
    let claims: { iss?: string; scope?: string; aud?: string; exp?: number };
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return bad('Invalid JWT.');
    }
    const key = claims.iss ? this.publicKeys.get(claims.iss) : undefined;
    if (!key) return bad('Invalid JWT Signature.');
    const verify = createVerify('RSA-SHA256').update(`${head}.${payload}`);
    if (!verify.verify(key, Buffer.from(signature, 'base64url'))) return bad('Invalid JWT Signature.');
    if (claims.aud !== GOOGLE_TOKEN_URL) return bad('Invalid JWT: Token must be for this endpoint (aud).');
    if (!claims.exp || claims.exp * 1000 < Date.now()) return bad('Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.');
    if (!String(claims.scope ?? '').split(' ').includes('https://www.googleapis.com/auth/spreadsheets')) return bad('Invalid OAuth scope.');
    const token = `ya29.${randomBytes(24).toString('base64url')}`;
    this.tokens.set(token, claims.iss!);
    return json(res, 200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
  }
}
