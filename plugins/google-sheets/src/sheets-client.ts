import { createHash } from 'node:crypto';
import { sheets } from '@googleapis/sheets';
import { JWT } from 'google-auth-library';
import { serviceDelivered, serviceFailed, type IntegrationResult } from '@formloom/core';
import { GOOGLE_TOKEN_URL, rangeOn, type ServiceAccountKey } from './service-account';
import { columnName, FIXED_COLUMNS, sheetRow, type RowInput } from './sheets-row';

/*
 * Appends a response to a sheet with Google's own SDK (@googleapis/sheets, google-auth-library's service
 * account JWT), every request through the fetch it is given: in Formloom that is the integration's guarded
 * `ctx.http.fetch` (docs/integrations.md), so the private-address rule of webhooks applies to Google's
 * addresses too, and to the token address a pasted key names.
 */

export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface SheetsClientOptions {
  fetch: FetchLike;
  /** The Sheets API's address (`rootUrl` of the SDK); default Google's. Tests give a local server. */
  rootUrl?: string;
  /** Time-out of each request, in milliseconds (default 10 s, as webhooks). */
  timeoutMs?: number;
}

export interface SheetTarget {
  spreadsheetId: string;
  /** The sheet (tab) name; '' for the first visible sheet. */
  sheet: string;
}

/** How many keys' clients are kept (each holds its access token for the hour it is valid). */
const MAX_CLIENTS = 100;

/** A failure of the SDK as its HTTP status, message and Retry-After (gaxios' GaxiosError, or anything thrown). */
function outcomeOf(e: unknown): IntegrationResult {
  const err = e as { response?: { status?: number; headers?: Headers | Record<string, string>; data?: unknown }; message?: string };
  const status = err?.response?.status;
  if (typeof status !== 'number') return serviceFailed(null, err?.message ?? String(e));
  const data = err.response!.data as { error?: { message?: string } | string; error_description?: string } | undefined;
  const message =
    (typeof data?.error === 'object' && data.error?.message) ||
    (typeof data?.error === 'string' && [data.error, data.error_description].filter(Boolean).join(': ')) ||
    err.message ||
    `HTTP ${status}`;
  const h = err.response!.headers;
  const retryAfter = h instanceof Headers ? h.get('retry-after') : (h?.['retry-after'] ?? null);
  return serviceFailed(status, message, retryAfter);
}

/** Google's SDK, one authorised client per service account key (so its token is reused until it expires). */
export class SheetsClient {
  private readonly auths = new Map<string, JWT>();

  constructor(private readonly options: SheetsClientOptions) {}

  private authFor(key: ServiceAccountKey): JWT {
    const id = createHash('sha256').update(`${key.client_email}\n${key.token_uri}\n${key.private_key}`).digest('hex');
    let auth = this.auths.get(id);
    if (auth) return auth;
    const fetch = this.options.fetch;
    // google-auth-library asks Google's token endpoint whatever the key says; a key naming another
    // token_uri (a test's local server) gets its tokens there.
    const viaKeyTokenUri: FetchLike = (input, init) =>
      String(input instanceof Request ? input.url : input) === GOOGLE_TOKEN_URL && key.token_uri !== GOOGLE_TOKEN_URL ? fetch(key.token_uri, init) : fetch(input, init);
    auth = new JWT({
      email: key.client_email,
      key: key.private_key,
      scopes: [SHEETS_SCOPE],
      transporterOptions: { fetchImplementation: viaKeyTokenUri as typeof globalThis.fetch, timeout: this.options.timeoutMs ?? 10_000 },
    });
    if (this.auths.size >= MAX_CLIENTS) this.auths.delete(this.auths.keys().next().value!);
    this.auths.set(id, auth);
    return auth;
  }

  /**
   * Appends `input` as one row: reads the header row, writes it first when the sheet is empty or has new
   * names, then appends. Values are sent RAW: an answer that starts with `=` stays text, never a formula.
   */
  async append(key: ServiceAccountKey, target: SheetTarget, input: RowInput, lookFirst = false): Promise<IntegrationResult> {
    const api = sheets({ version: 'v4', auth: this.authFor(key), ...(this.options.rootUrl ? { rootUrl: this.options.rootUrl } : {}) });
    // The outbox retries on its own schedule (after the service's Retry-After): no retries inside the SDK.
    const call = { retry: false, timeout: this.options.timeoutMs ?? 10_000 };
    try {
      const got = await api.spreadsheets.values.get({ spreadsheetId: target.spreadsheetId, range: rangeOn(target.sheet, '1:1') }, call);
      const existing = (got.data.values?.[0] ?? []).map(String);
      // An earlier attempt may have appended the row (docs/plugins.md, "Deliveries that may have been sent"):
      // look for the response's id in the "Response ID" column first. Without that column there is no row of
      // ours yet (an attempt writes the header before its row).
      const idColumn = existing.map((h) => h.trim()).indexOf(FIXED_COLUMNS[1]);
      if (lookFirst && idColumn >= 0) {
        const letter = columnName(idColumn + 1);
        const ids = await api.spreadsheets.values.get({ spreadsheetId: target.spreadsheetId, range: rangeOn(target.sheet, `${letter}:${letter}`) }, call);
        const at = (ids.data.values ?? []).findIndex((r) => String(r?.[0] ?? '') === input.response_id);
        if (at > 0) return serviceDelivered(200, `Found row ${at + 1}, appended before a restart`);
      }
      const { header, headerChanged, row } = sheetRow(existing, input);
      if (headerChanged) {
        await api.spreadsheets.values.update(
          { spreadsheetId: target.spreadsheetId, range: rangeOn(target.sheet, 'A1'), valueInputOption: 'RAW', requestBody: { values: [header] } },
          call,
        );
      }
      const appended = await api.spreadsheets.values.append(
        {
          spreadsheetId: target.spreadsheetId,
          range: rangeOn(target.sheet, 'A1'),
          valueInputOption: 'RAW',
          insertDataOption: 'INSERT_ROWS',
          requestBody: { values: [row] },
        },
        call,
      );
      return serviceDelivered(appended.status, `Appended ${appended.data.updates?.updatedRange ?? 'a row'}`);
    } catch (e) {
      // A refused address (ctx.http's private-address guard) fails the delivery at once: not retried.
      const refused = [e, (e as { cause?: unknown })?.cause].find((x) => (x as { code?: unknown } | undefined)?.code === 'DESTINATION_REFUSED');
      if (refused) throw refused;
      return outcomeOf(e);
    }
  }
}
