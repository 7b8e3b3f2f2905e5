import type { FormloomPlugin, IntegrationContext, IntegrationType } from '@formloom/core';
import type { SheetsClient } from './sheets-client';
import { parseServiceAccountKey, spreadsheetIdOf } from './service-account';

// Google's SDK is loaded at the first delivery, not with the plugin (docs/integrations.md, "Google Sheets").
export type { SheetsClient, SheetsClientOptions, SheetTarget } from './sheets-client';
export { sheetRow, cellOf, FIXED_COLUMNS, type RowAnswer, type RowInput, type SheetRow } from './sheets-row';
export { parseServiceAccountKey, spreadsheetIdOf, rangeOn, GOOGLE_TOKEN_URL, type ServiceAccountKey } from './service-account';

/** The instance's settings of the plugin (formloom.config.mjs), for the operator, never an owner. */
export interface GoogleSheetsOptions {
  /** The Sheets API's address; default Google's (`https://sheets.googleapis.com/`). Tests point it at a local server. */
  rootUrl?: string;
  /** Time-out of each request to Google, in milliseconds (default 10 s). */
  timeoutMs?: number;
}

export const GOOGLE_SHEETS_TYPE = 'google-sheets';

/**
 * Google Sheets as a Formloom integration (docs/integrations.md, "Google Sheets"): a row per completed
 * response appended to a spreadsheet the owner shared with a service account. Requests go through the
 * integration's guarded `ctx.http.fetch`.
 */
export function googleSheetsPlugin(options: GoogleSheetsOptions = {}): FormloomPlugin<GoogleSheetsOptions> {
  // One client (and so one token per service account) per instance, keyed by its event bus.
  const clients = new WeakMap<object, SheetsClient>();
  const clientFor = async (ctx: IntegrationContext<GoogleSheetsOptions>) => {
    let c = clients.get(ctx.events);
    if (!c) {
      const { SheetsClient } = await import('./sheets-client.js');
      clients.set(ctx.events, (c = new SheetsClient({ fetch: ctx.http.fetch, ...(options.rootUrl ? { rootUrl: options.rootUrl } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) })));
    }
    return c;
  };
  const sheets: IntegrationType<GoogleSheetsOptions> = {
    type: GOOGLE_SHEETS_TYPE,
    title: 'Google Sheets',
    description: 'Adds a row to a Google Sheet for each new response. An empty sheet gets a first row naming the columns.',
    fields: [
      {
        key: 'spreadsheet',
        label: 'Spreadsheet',
        type: 'text',
        required: true,
        placeholder: 'https://docs.google.com/spreadsheets/d/…/edit',
        help: "Open the spreadsheet in Google Sheets and copy its address from the browser's address bar.",
      },
      { key: 'sheet', label: 'Sheet name', type: 'text', maxLength: 100, help: 'The tab at the bottom of the spreadsheet. Leave it empty to use the first one.' },
      {
        key: 'service_account_key',
        label: 'Service account key (JSON)',
        type: 'textarea',
        secret: true,
        required: true,
        help: "In Google Cloud: IAM, Service accounts, your account, Keys, Add key, JSON. Paste the whole file here, then share the spreadsheet with the account's email address as an Editor.",
      },
    ],
    check(config, secrets) {
      if (!spreadsheetIdOf(String(config.spreadsheet ?? ''))) return { field: 'spreadsheet', message: 'Paste the address of the spreadsheet (https://docs.google.com/spreadsheets/d/…) or its ID' };
      const key = secrets.service_account_key ? parseServiceAccountKey(secrets.service_account_key) : null;
      if (typeof key === 'string') return { field: 'service_account_key', message: key };
      return null;
    },
    // A retry that may follow a row appended already looks for it in the "Response ID" column first.
    deduplicates: true,
    // One spreadsheet is one destination: at most 4 appends to it at once, whatever the number of forms.
    destination: (config) => `sheets:${spreadsheetIdOf(String(config.spreadsheet ?? '')) ?? ''}`,
    async deliver(delivery, ctx) {
      const key = parseServiceAccountKey(delivery.secrets.service_account_key ?? '');
      const spreadsheetId = spreadsheetIdOf(String(delivery.config.spreadsheet ?? ''));
      if (typeof key === 'string' || !spreadsheetId) return { status: null, ok: false, retry: false, error: typeof key === 'string' ? key : 'No spreadsheet is set' };
      return (await clientFor(ctx)).append(key, { spreadsheetId, sheet: String(delivery.config.sheet ?? '') }, {
        response_id: delivery.payload.response_id,
        submitted_at: delivery.payload.submitted_at,
        answers: delivery.answers,
      }, delivery.maybeDelivered);
    },
  };
  return { name: 'google-sheets', version: '0.1.0', options, integrations: [sheets] };
}
