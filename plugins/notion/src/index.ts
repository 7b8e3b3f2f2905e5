import type { FormloomPlugin, IntegrationContext, IntegrationType } from '@formloom/core';
import type { NotionWriter } from './notion-client';
import { databaseIdOf } from './notion-properties';

// Notion's SDK is loaded at the first delivery, not with the plugin (docs/integrations.md, "Notion").
export type { NotionWriter, NotionWriterOptions } from './notion-client';
export { pageProperties, propertyValue, databaseIdOf, richText, RESPONSE_ID_PROPERTY, SUBMITTED_AT_PROPERTY, type PageAnswer, type PageInput, type PropertySchema } from './notion-properties';

/** The instance's settings of the plugin (formloom.config.mjs), for the operator, never an owner. */
export interface NotionOptions {
  /** Notion's API address; default Notion's (`https://api.notion.com`). Tests point it at a local server. */
  baseUrl?: string;
  /** Time-out of each request to Notion, in milliseconds (default 10 s). */
  timeoutMs?: number;
}

export const NOTION_TYPE = 'notion';

/**
 * Notion as a Formloom integration (docs/integrations.md, "Notion"): a page per completed response in a
 * database shared with the owner's Notion integration, each answer in the property of its name. Requests go
 * through the integration's guarded `ctx.http.fetch`.
 */
export function notionPlugin(options: NotionOptions = {}): FormloomPlugin<NotionOptions> {
  // One writer per instance (it keeps each database's properties for a few minutes), keyed by its event bus.
  const writers = new WeakMap<object, NotionWriter>();
  const writerFor = async (ctx: IntegrationContext<NotionOptions>) => {
    let w = writers.get(ctx.events);
    if (!w) {
      const { NotionWriter } = await import('./notion-client.js');
      writers.set(ctx.events, (w = new NotionWriter({ fetch: ctx.http.fetch, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}), ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}) })));
    }
    return w;
  };
  const notion: IntegrationType<NotionOptions> = {
    type: NOTION_TYPE,
    title: 'Notion',
    description: 'Adds a page to a Notion database for each new response, each answer in the property of the same name.',
    fields: [
      {
        key: 'database',
        label: 'Database',
        type: 'text',
        required: true,
        placeholder: 'https://www.notion.so/…',
        help: "Open the database in Notion as a full page and copy its link (Share, then Copy link). Name its properties like the answers (or rename the answers below).",
      },
      {
        key: 'token',
        label: 'Internal integration secret',
        type: 'text',
        secret: true,
        required: true,
        placeholder: 'ntn_…',
        help: "At notion.so/profile/integrations: New integration, then copy its secret. In the database: ..., Connections, then add that integration.",
      },
    ],
    check(config) {
      return databaseIdOf(String(config.database ?? '')) ? null : { field: 'database', message: "Paste the database's link (https://www.notion.so/…) or its ID" };
    },
    // A retry that may follow a page made already looks for it by its "Response ID" first.
    deduplicates: true,
    // One Notion integration token is one destination (Notion's rate limit is per integration).
    destination: (config) => `notion:${databaseIdOf(String(config.database ?? '')) ?? ''}`,
    async deliver(delivery, ctx) {
      const databaseId = databaseIdOf(String(delivery.config.database ?? ''));
      const token = delivery.secrets.token ?? '';
      if (!databaseId || !token) return { status: null, ok: false, retry: false, error: !databaseId ? 'No database is set' : 'No integration secret is set' };
      return (await writerFor(ctx)).createPage(token, databaseId, {
        form_title: delivery.form.title,
        response_id: delivery.payload.response_id,
        submitted_at: delivery.payload.submitted_at,
        answers: delivery.answers,
      }, delivery.maybeDelivered);
    },
  };
  return { name: 'notion', version: '0.1.0', options, integrations: [notion] };
}
