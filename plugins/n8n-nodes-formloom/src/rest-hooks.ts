import type { IDataObject } from 'n8n-workflow';

/*
 * Formloom's REST Hooks routes (docs/integrations.md, "Zapier, Make and n8n"), as the trigger node uses
 * them: subscribe a target URL to a form's new responses, read one subscription, unsubscribe it.
 */
export const hookPaths = {
  subscribe: (formId: string) => `/forms/${encodeURIComponent(formId)}/hooks`,
  subscribeBody: (_formId: string, targetUrl: string): IDataObject => ({ target_url: targetUrl, event: 'response.submitted' }),
  one: (formId: string, id: string) => `/forms/${encodeURIComponent(formId)}/hooks/${encodeURIComponent(id)}`,
};
