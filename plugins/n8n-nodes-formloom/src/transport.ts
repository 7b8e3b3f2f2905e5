import type { IDataObject, IExecuteFunctions, IHookFunctions, IHttpRequestMethods, ILoadOptionsFunctions, INodePropertyOptions } from 'n8n-workflow';

/*
 * The one way the nodes call Formloom: n8n's `httpRequestWithAuthentication` with the `formloomApi`
 * credentials (which add the key), under the instance's `/api/v1`. Only n8n-workflow's types are imported:
 * n8n provides the package at run time (a peer dependency), and the node package loads without it.
 */

export type FormloomContext = IExecuteFunctions | IHookFunctions | ILoadOptionsFunctions;

export const CREDENTIALS = 'formloomApi';

/** The API's base: the credential's address without trailing slashes, then `/api/v1`. */
export async function apiBase(ctx: FormloomContext): Promise<string> {
  const credentials = await ctx.getCredentials(CREDENTIALS);
  return `${String(credentials.baseUrl ?? '').replace(/\/+$/, '')}/api/v1`;
}

export async function formloomRequest<T = IDataObject>(ctx: FormloomContext, method: IHttpRequestMethods, path: string, qs: IDataObject = {}, body?: IDataObject): Promise<T> {
  return (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIALS, {
    method,
    url: `${await apiBase(ctx)}${path}`,
    qs,
    ...(body ? { body } : {}),
    json: true,
  })) as T;
}

/** Every page of a `{<key>: [...], total, page, per_page}` list, or the first `limit` items. */
export async function listAll(ctx: FormloomContext, path: string, key: string, qs: IDataObject, limit: number | null): Promise<IDataObject[]> {
  const items: IDataObject[] = [];
  const perPage = limit === null ? 100 : Math.min(100, Math.max(1, limit));
  let cursor: string | null = null;
  for (let page = 1; ; page++) {
    const answer: IDataObject = await formloomRequest(ctx, 'GET', path, { ...qs, per_page: perPage, ...(cursor ? { cursor } : { page }) });
    const got = (answer[key] as IDataObject[] | undefined) ?? [];
    items.push(...got);
    cursor = typeof answer.next_cursor === 'string' ? answer.next_cursor : null;
    const total = typeof answer.total === 'number' ? answer.total : 0;
    if (limit !== null && items.length >= limit) return items.slice(0, limit);
    if (got.length < perPage || items.length >= total) return items;
  }
}

/** The caller's forms as a dropdown's options (the nodes' "Form" field). */
export async function formOptions(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
  const forms = await listAll(this, '/forms', 'forms', {}, null);
  return forms.map((f) => ({ name: String(f.title ?? f.id), value: String(f.id), description: f.published ? 'Published' : 'Draft' }));
}
