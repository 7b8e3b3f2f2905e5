import { APIResponseError, Client, isNotionClientError } from '@notionhq/client';
import { serviceDelivered, serviceFailed, type IntegrationResult } from '@formloom/core';
import { pageProperties, propertyNamed, RESPONSE_ID_PROPERTY, type PageInput, type PropertySchema } from './notion-properties';

/*
 * Creates a page per response with Notion's own SDK (@notionhq/client), every request through the fetch it
 * is given: in Formloom the integration's guarded `ctx.http.fetch` (docs/integrations.md). The database's
 * properties are read first (its data source, Notion API 2025-09-03) and kept for a few minutes, so a burst
 * of responses costs one page each; a page Notion refuses as not matching them is tried once more with
 * the properties read afresh (someone renamed a column).
 */

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface NotionWriterOptions {
  fetch: FetchLike;
  /** Notion's API address (`baseUrl` of the SDK); default Notion's. Tests give a local server. */
  baseUrl?: string;
  timeoutMs?: number;
  /** How long a database's properties are kept (default 5 minutes). */
  schemaTtlMs?: number;
  now?: () => number;
}

interface Schema {
  dataSourceId: string;
  properties: Record<string, PropertySchema>;
  at: number;
}

/** How many databases' properties are kept. */
const MAX_SCHEMAS = 200;

/**
 * Notion's answers as delivery outcomes: 429 (rate_limited) and 5xx, and 409 (conflict_error, which
 * Notion says to try again), are retried after Retry-After; other 4xx (a wrong token, a database not
 * shared with the integration, a property that does not fit) are final.
 */
function outcomeOf(e: unknown): IntegrationResult {
  if (isNotionClientError(e) && 'status' in e && typeof e.status === 'number') {
    const headers = (e as { headers?: unknown }).headers;
    const retryAfter = headers instanceof Headers ? headers.get('retry-after') : ((headers as Record<string, string> | undefined)?.['retry-after'] ?? null);
    const out = serviceFailed(e.status, `${'code' in e ? `${String(e.code)}: ` : ''}${e.message}`, retryAfter);
    return e.status === 409 ? { ...out, retry: true } : out;
  }
  return serviceFailed(null, e instanceof Error ? e.message : String(e));
}

export class NotionWriter {
  private readonly schemas = new Map<string, Schema>();

  constructor(private readonly options: NotionWriterOptions) {}

  private client(token: string) {
    return new Client({
      auth: token,
      fetch: this.options.fetch,
      timeoutMs: this.options.timeoutMs ?? 10_000,
      // The outbox retries on its own schedule, after Notion's Retry-After.
      retry: false,
      // Failures reach the delivery log; the SDK's own console lines would only repeat them.
      logger: () => {},
      ...(this.options.baseUrl ? { baseUrl: this.options.baseUrl } : {}),
    });
  }

  /** The database's properties, and whether they were kept from before (rather than read now). */
  private async schema(client: Client, token: string, databaseId: string, fresh: boolean): Promise<[Schema, boolean]> {
    const key = `${databaseId}\n${token}`;
    const now = (this.options.now ?? Date.now)();
    const kept = this.schemas.get(key);
    if (kept && !fresh && now - kept.at < (this.options.schemaTtlMs ?? 300_000)) return [kept, true];
    const database = (await client.databases.retrieve({ database_id: databaseId })) as { data_sources?: Array<{ id: string }> };
    const dataSourceId = database.data_sources?.[0]?.id;
    if (!dataSourceId) throw new Error('This database has no data source to add pages to');
    const source = (await client.dataSources.retrieve({ data_source_id: dataSourceId })) as { properties?: Record<string, PropertySchema> };
    const schema = { dataSourceId, properties: source.properties ?? {}, at: now };
    this.schemas.delete(key);
    if (this.schemas.size >= MAX_SCHEMAS) this.schemas.delete(this.schemas.keys().next().value!);
    this.schemas.set(key, schema);
    return [schema, false];
  }

  /**
   * The page a delivery made already, found by its response id (the database's text property "Response ID"):
   * its address, `null` when there is none, or `undefined` when the database has no such property to look in.
   */
  private async pageOf(client: Client, schema: Schema, responseId: string): Promise<string | null | undefined> {
    const idProp = propertyNamed(schema.properties, RESPONSE_ID_PROPERTY);
    if (!idProp || schema.properties[idProp]!.type !== 'rich_text') return undefined;
    const found = await client.dataSources.query({
      data_source_id: schema.dataSourceId,
      filter: { property: idProp, rich_text: { equals: responseId } },
      page_size: 1,
    } as never);
    const page = found.results[0] as { id: string; url?: string } | undefined;
    return page ? (page.url ?? page.id) : null;
  }

  /**
   * Creates the page of `input` in the database; the outcome says whether it was made, or why not. With
   * `lookFirst` (an earlier attempt may have made it: docs/plugins.md, "Deliveries that may have been sent")
   * the database is asked for a page of the same response id first, and an existing one is the outcome.
   */
  async createPage(token: string, databaseId: string, input: PageInput, lookFirst = false): Promise<IntegrationResult> {
    const client = this.client(token);
    let fresh = false;
    let mayRepeat = false;
    for (;;) {
      let kept = false;
      try {
        const [schema, wasKept] = await this.schema(client, token, databaseId, fresh);
        kept = wasKept;
        if (lookFirst) {
          const existing = await this.pageOf(client, schema, input.response_id);
          if (existing) return serviceDelivered(200, `Found page ${existing}, made before a restart`.slice(0, 500));
          mayRepeat = existing === undefined;
        }
        const { properties, skipped } = pageProperties(schema.properties, input);
        const page = (await client.pages.create({ parent: { type: 'data_source_id', data_source_id: schema.dataSourceId }, properties } as never)) as { id: string; url?: string };
        const note = skipped.length ? `; no property for: ${skipped.join(', ')}` : '';
        const made = serviceDelivered(200, `Created page ${page.url ?? page.id}${note}`.slice(0, 500));
        // Without a "Response ID" property there was nothing to look in: this page may be a second one.
        return mayRepeat ? { ...made, mayRepeat: true } : made;
      } catch (e) {
        // A refused address (ctx.http's private-address guard) fails the delivery at once: not retried.
        if ((e as { code?: unknown })?.code === 'DESTINATION_REFUSED') throw e;
        if (kept && APIResponseError.isAPIResponseError(e) && e.code === 'validation_error') {
          fresh = true;
          continue;
        }
        return outcomeOf(e);
      }
    }
  }
}
