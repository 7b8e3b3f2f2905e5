import type { FormloomPlugin, IntegrationType } from '@formloom/core';
import type { AirtableWriter } from './airtable-client';
import { baseIdOf, tableOf } from './airtable-fields';

// Airtable's SDK is loaded at the first delivery, not with the plugin (docs/integrations.md, "Airtable").
export type { AirtableWriter, AirtableWriterOptions } from './airtable-client';
export { recordFields, fieldValue, baseIdOf, tableOf, type RecordAnswer, type FieldValue } from './airtable-fields';

/** The instance's settings of the plugin (formloom.config.mjs), for the operator, never an owner. */
export interface AirtableOptions {
  /** Airtable's API address; default Airtable's (`https://api.airtable.com`). Tests point it at a local server. */
  endpointUrl?: string;
  /** Time-out of each request to Airtable, in milliseconds (default 10 s). */
  timeoutMs?: number;
}

export const AIRTABLE_TYPE = 'airtable';

/** The table of the settings: the `table` field, else a table id in the base's address. */
const tableIn = (config: Record<string, unknown>) => tableOf(String(config.table ?? '')) ?? /\b(tbl[A-Za-z0-9]{14})\b/.exec(String(config.base ?? ''))?.[1] ?? null;

/**
 * Airtable as a Formloom integration (docs/integrations.md, "Airtable"): a record per completed response,
 * each answer in the field of its name, `typecast` on. Airtable's SDK sends its own requests to the
 * operator's `endpointUrl`; owners choose only a base and a table in it.
 */
export function airtablePlugin(options: AirtableOptions = {}): FormloomPlugin<AirtableOptions> {
  let writer: Promise<AirtableWriter> | null = null;
  const writerOf = () =>
    (writer ??= import('./airtable-client.js').then(({ AirtableWriter }) => new AirtableWriter({ ...(options.endpointUrl ? { endpointUrl: options.endpointUrl } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) })));
  const airtable: IntegrationType<AirtableOptions> = {
    type: AIRTABLE_TYPE,
    title: 'Airtable',
    description: 'Adds a record to an Airtable table for each new response, each answer in the field of the same name.',
    fields: [
      {
        key: 'base',
        label: 'Base',
        type: 'text',
        required: true,
        placeholder: 'https://airtable.com/app…/tbl…',
        help: "Open the table in Airtable and copy the address from the browser's address bar (it holds the base and the table).",
      },
      { key: 'table', label: 'Table', type: 'text', maxLength: 255, help: "The table's name, if the address above does not show it." },
      {
        key: 'id_field',
        label: 'Response ID field',
        type: 'text',
        maxLength: 255,
        placeholder: 'Response ID',
        help: "A text field of the table that gets each response's ID. With it, a response is never added twice, even when Formloom restarts in the middle of sending.",
      },
      {
        key: 'token',
        label: 'Personal access token',
        type: 'text',
        secret: true,
        required: true,
        placeholder: 'pat…',
        help: 'At airtable.com/create/tokens: Create token, with the scope data.records:write and access to this base.',
      },
    ],
    check(config) {
      if (!baseIdOf(String(config.base ?? ''))) return { field: 'base', message: "Paste the table's address (https://airtable.com/app…) or the base's ID (app…)" };
      if (!tableIn(config)) return { field: 'table', message: "Give the table's name (the address does not name one)" };
      return null;
    },
    // A retry that may follow a record made already looks for it in the "Response ID field" first.
    deduplicates: true,
    // Airtable limits requests per base: one base is one destination.
    destination: (config) => `airtable:${baseIdOf(String(config.base ?? '')) ?? ''}`,
    async deliver(delivery) {
      const baseId = baseIdOf(String(delivery.config.base ?? ''));
      const table = tableIn(delivery.config);
      const token = delivery.secrets.token ?? '';
      if (!baseId || !table || !token) return { status: null, ok: false, retry: false, error: !token ? 'No access token is set' : 'No base or table is set' };
      const idField = String(delivery.config.id_field ?? '').trim();
      const id = idField ? { field: idField, value: delivery.payload.response_id } : null;
      return (await writerOf()).createRecord(token, baseId, table, delivery.answers, id, delivery.maybeDelivered);
    },
  };
  return { name: 'airtable', version: '0.1.0', options, integrations: [airtable] };
}
