// n8n loads the nodes and credentials listed in package.json "n8n"; this entry only names them.
export const NODE_PACKAGE = 'n8n-nodes-formloom';
