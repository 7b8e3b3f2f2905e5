// Filled in by the plugin's modules (docs/integrations.md).
export const PLUGIN_NAME = 'google-sheets';
