import type { IDataObject, IHookFunctions, INodeType, INodeTypeDescription, IWebhookFunctions, IWebhookResponseData, NodeConnectionType } from 'n8n-workflow';
import { formloomRequest, formOptions } from '../../transport';
import { hookPaths } from '../../rest-hooks';

/*
 * Starts a workflow on each new (completed) response of a form (docs/integrations.md, "n8n"). When the
 * workflow is activated, n8n calls `create`: the node subscribes its webhook URL to the form through
 * Formloom's REST Hooks API; on deactivation `delete` unsubscribes it. Formloom then POSTs each response
 * in its standard payload (form, response id, answers by name and in full) to the URL, and `webhook`
 * hands that payload to the workflow as one item.
 */

const MAIN = 'main' as NodeConnectionType;

export class FormloomTrigger implements INodeType {
  description: INodeTypeDescription = {
    displayName: 'Formloom Trigger',
    name: 'formloomTrigger',
    icon: 'fa:clipboard-list',
    group: ['trigger'],
    version: 1,
    subtitle: '=New response',
    description: 'Starts the workflow when a form gets a new response',
    defaults: { name: 'Formloom Trigger' },
    inputs: [],
    outputs: [MAIN],
    credentials: [{ name: 'formloomApi', required: true }],
    webhooks: [{ name: 'default', httpMethod: 'POST', responseMode: 'onReceived', path: 'webhook' }],
    properties: [
      {
        displayName: 'Form Name or ID',
        name: 'formId',
        type: 'options',
        typeOptions: { loadOptionsMethod: 'getForms' },
        default: '',
        required: true,
        description: 'The form whose new responses start the workflow. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
      },
    ],
  };

  methods = { loadOptions: { getForms: formOptions } };

  webhookMethods = {
    default: {
      /** Whether this workflow's subscription is still there (n8n then does not subscribe again). */
      async checkExists(this: IHookFunctions): Promise<boolean> {
        const data = this.getWorkflowStaticData('node');
        const formId = this.getNodeParameter('formId') as string;
        if (!data.subscriptionId || data.formId !== formId) return false;
        try {
          await formloomRequest(this, 'GET', hookPaths.one(formId, String(data.subscriptionId)));
          return true;
        } catch {
          delete data.subscriptionId;
          return false;
        }
      },
      async create(this: IHookFunctions): Promise<boolean> {
        const formId = this.getNodeParameter('formId') as string;
        const targetUrl = this.getNodeWebhookUrl('default');
        const answer = await formloomRequest(this, 'POST', hookPaths.subscribe(formId), {}, hookPaths.subscribeBody(formId, String(targetUrl)));
        const data = this.getWorkflowStaticData('node');
        data.subscriptionId = String(answer.id);
        data.formId = formId;
        return true;
      },
      async delete(this: IHookFunctions): Promise<boolean> {
        const data = this.getWorkflowStaticData('node');
        if (!data.subscriptionId) return true;
        try {
          await formloomRequest(this, 'DELETE', hookPaths.one(String(data.formId), String(data.subscriptionId)));
        } catch (error) {
          // Already gone (deleted in the Integrations tab, or the form deleted): nothing left to undo.
          if ((error as { httpCode?: string; response?: { status?: number } }).httpCode !== '404' && (error as { response?: { status?: number } }).response?.status !== 404) return false;
        }
        delete data.subscriptionId;
        delete data.formId;
        return true;
      },
    },
  };

  async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
    const body = this.getBodyData() as IDataObject;
    return { workflowData: [this.helpers.returnJsonArray([body])] };
  }
}
