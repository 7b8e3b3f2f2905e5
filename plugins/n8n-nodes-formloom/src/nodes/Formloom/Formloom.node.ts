import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeType, INodeTypeDescription, NodeConnectionType } from 'n8n-workflow';
import { formloomRequest, formOptions, listAll } from '../../transport';

/*
 * Formloom's forms and responses as n8n actions (docs/integrations.md, "n8n"): list forms, get a form, list
 * a form's responses, get a response. Each item is the API's own JSON (GET /api/v1/forms...), and a
 * response also carries `answers_by_title` (the question's title to the answer), which is what a workflow
 * usually wants.
 */

const MAIN = 'main' as NodeConnectionType;

/** A response with its answers also by question title (the form's questions, read once per form). */
function withTitles(response: IDataObject, titles: Map<string, string>): IDataObject {
  const answers = (response.answers as Array<{ question_id: string; value: unknown }> | undefined) ?? [];
  const byTitle: IDataObject = {};
  for (const a of answers) byTitle[titles.get(a.question_id) ?? a.question_id] = a.value as IDataObject;
  return { ...response, answers_by_title: byTitle };
}

export class Formloom implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Formloom',
    name: 'formloom',
    icon: 'fa:clipboard-list',
    group: ['transform'],
    version: 1,
    subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
    description: 'Read forms and responses from Formloom',
    defaults: { name: 'Formloom' },
    inputs: [MAIN],
    outputs: [MAIN],
    credentials: [{ name: 'formloomApi', required: true }],
    properties: [
      {
        displayName: 'Resource',
        name: 'resource',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'Form', value: 'form' },
          { name: 'Response', value: 'response' },
        ],
        default: 'response',
      },
      {
        displayName: 'Operation',
        name: 'operation',
        type: 'options',
        noDataExpression: true,
        options: [
          { name: 'Get', value: 'get', action: 'Get one', description: 'Get one by its ID' },
          { name: 'Get Many', value: 'getAll', action: 'Get many', description: 'List them' },
        ],
        default: 'getAll',
      },
      {
        displayName: 'Form Name or ID',
        name: 'formId',
        type: 'options',
        typeOptions: { loadOptionsMethod: 'getForms' },
        default: '',
        required: true,
        description: 'Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>',
        displayOptions: { hide: { resource: ['form'], operation: ['getAll'] } },
      },
      {
        displayName: 'Response ID',
        name: 'responseId',
        type: 'string',
        default: '',
        required: true,
        placeholder: 'rsp_...',
        displayOptions: { show: { resource: ['response'], operation: ['get'] } },
      },
      {
        displayName: 'Return All',
        name: 'returnAll',
        type: 'boolean',
        default: false,
        description: 'Whether to return all results or only up to a given limit',
        displayOptions: { show: { operation: ['getAll'] } },
      },
      {
        displayName: 'Limit',
        name: 'limit',
        type: 'number',
        typeOptions: { minValue: 1 },
        default: 50,
        description: 'Max number of results to return',
        displayOptions: { show: { operation: ['getAll'], returnAll: [false] } },
      },
      {
        displayName: 'Filters',
        name: 'filters',
        type: 'collection',
        placeholder: 'Add Filter',
        default: {},
        displayOptions: { show: { resource: ['response'], operation: ['getAll'] } },
        options: [
          { displayName: 'Completed Only', name: 'completed', type: 'boolean', default: true, description: 'Whether to return only completed responses (off: only partial ones)' },
          { displayName: 'Since', name: 'since', type: 'dateTime', default: '', description: 'Responses submitted at or after this time' },
          { displayName: 'Until', name: 'until', type: 'dateTime', default: '', description: 'Responses submitted at or before this time' },
        ],
      },
      {
        displayName: 'Search',
        name: 'search',
        type: 'string',
        default: '',
        description: 'Only forms whose title contains this text',
        displayOptions: { show: { resource: ['form'], operation: ['getAll'] } },
      },
    ],
  };

  methods = { loadOptions: { getForms: formOptions } };

  async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
    const items = this.getInputData();
    const out: INodeExecutionData[] = [];
    const titlesByForm = new Map<string, Map<string, string>>();
    const titles = async (formId: string) => {
      let t = titlesByForm.get(formId);
      if (!t) {
        const form = await formloomRequest(this, 'GET', `/forms/${encodeURIComponent(formId)}`);
        t = new Map(((form.questions as IDataObject[] | undefined) ?? []).map((q) => [String(q.id), String(q.title ?? q.id)]));
        titlesByForm.set(formId, t);
      }
      return t;
    };
    for (let i = 0; i < items.length; i++) {
      try {
        const resource = this.getNodeParameter('resource', i) as string;
        const operation = this.getNodeParameter('operation', i) as string;
        const limit = operation === 'getAll' && !(this.getNodeParameter('returnAll', i, false) as boolean) ? (this.getNodeParameter('limit', i, 50) as number) : null;
        let results: IDataObject[];
        if (resource === 'form' && operation === 'getAll') {
          const search = this.getNodeParameter('search', i, '') as string;
          results = await listAll(this, '/forms', 'forms', search ? { search } : {}, limit);
        } else {
          const formId = this.getNodeParameter('formId', i) as string;
          const form = `/forms/${encodeURIComponent(formId)}`;
          if (resource === 'form') results = [await formloomRequest(this, 'GET', form)];
          else if (operation === 'get') {
            const responseId = this.getNodeParameter('responseId', i) as string;
            results = [withTitles(await formloomRequest(this, 'GET', `${form}/responses/${encodeURIComponent(responseId)}`), await titles(formId))];
          } else {
            const filters = this.getNodeParameter('filters', i, {}) as IDataObject;
            const qs: IDataObject = {};
            if (typeof filters.completed === 'boolean') qs.completed = filters.completed;
            if (filters.since) qs.since = new Date(String(filters.since)).toISOString();
            if (filters.until) qs.until = new Date(String(filters.until)).toISOString();
            const t = await titles(formId);
            results = (await listAll(this, `${form}/responses`, 'responses', qs, limit)).map((r) => withTitles(r, t));
          }
        }
        out.push(...results.map((json) => ({ json, pairedItem: { item: i } })));
      } catch (error) {
        if (!this.continueOnFail()) throw error;
        out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
      }
    }
    return [out];
  }
}
