import type { IAuthenticateGeneric, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * A Formloom API key and the instance's address (docs/integrations.md, "n8n"). Every request of the nodes
 * carries the key as `Authorization: Bearer <key>`; n8n tests it by listing one form.
 */
export class FormloomApi implements ICredentialType {
  name = 'formloomApi';

  displayName = 'Formloom API';

  documentationUrl = 'https://github.com/formloom/formloom/blob/main/docs/integrations.md#n8n';

  properties: INodeProperties[] = [
    {
      displayName: 'Base URL',
      name: 'baseUrl',
      type: 'string',
      default: '',
      placeholder: 'https://forms.example.com',
      required: true,
      description: 'The address of your Formloom instance (what you open in the browser), without /api/v1',
    },
    {
      displayName: 'API Key',
      name: 'apiKey',
      type: 'string',
      typeOptions: { password: true },
      default: '',
      required: true,
      description: 'A key with the "forms" scope: in Formloom, Settings, then API keys, then "Create key"',
    },
  ];

  authenticate: IAuthenticateGeneric = {
    type: 'generic',
    properties: { headers: { Authorization: '=Bearer {{$credentials.apiKey}}' } },
  };

  test: ICredentialTestRequest = {
    request: { baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}/api/v1', url: '/forms', qs: { per_page: 1 } },
  };
}
