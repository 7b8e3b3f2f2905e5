import type { FormloomPlugin } from '@formloom/core';
import { airtablePlugin } from '@formloom/plugin-airtable';
import { googleSheetsPlugin } from '@formloom/plugin-google-sheets';
import { notionPlugin } from '@formloom/plugin-notion';
import { restHooksPlugin } from '@formloom/plugin-rest-hooks';
import { slackPlugin } from '@formloom/plugin-slack';

/**
 * The official integration plugins the self-hosted app runs without a config file (docs/integrations.md):
 * chat channels (Slack, Discord, Microsoft Teams, Google Chat), Google Sheets, Notion, Airtable (each loads
 * its service's SDK at its first delivery) and REST Hooks (Zapier, Make, n8n). A plugin
 * of the same name in `formloom.config.mjs` takes its place (with the operator's options).
 */
export function officialPlugins(configured: readonly FormloomPlugin[]): FormloomPlugin[] {
  const taken = new Set(configured.map((p) => p.name));
  return [slackPlugin(), googleSheetsPlugin(), notionPlugin(), airtablePlugin(), restHooksPlugin()].filter((p) => !taken.has(p.name));
}
