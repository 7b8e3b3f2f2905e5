import type { PluginContext } from '../plugins/plugin';
import { PluginConfigError } from '../plugins/plugin-host';
import type { WebhookTransport } from '../ports/webhook-transport';
import type { FormloomConfig } from '../config';
import type { IntegrationContext, IntegrationField, IntegrationType } from './integration-types';
import { integrationHttp } from './outgoing-http';

/** A registered integration type with the context of the plugin that provides it. */
export interface RegisteredIntegration {
  plugin: string;
  definition: IntegrationType;
  ctx: IntegrationContext;
}

const KEY = /^[a-z][a-z0-9_]{0,63}$/;
const TYPE = /^[a-z][a-z0-9-]{0,63}$/;

/** Refuses a field list the settings form could not render or the API could not check. */
function checkFields(plugin: string, type: string, fields: readonly IntegrationField[]) {
  const seen = new Set<string>();
  for (const f of fields) {
    const where = `plugin "${plugin}", integration "${type}"`;
    if (!f || typeof f.key !== 'string' || !KEY.test(f.key)) throw new PluginConfigError(`${where}: a field needs a \`key\` of lower-case letters, digits and _`);
    if (seen.has(f.key)) throw new PluginConfigError(`${where}: two fields have the key "${f.key}"`);
    seen.add(f.key);
    if (!['text', 'textarea', 'url', 'select', 'checkbox'].includes(f.type)) throw new PluginConfigError(`${where}: field "${f.key}" has the type "${String(f.type)}" (text, textarea, url, select or checkbox)`);
    if (!f.label) throw new PluginConfigError(`${where}: field "${f.key}" needs a \`label\``);
    if (f.type === 'select' && !f.options?.length) throw new PluginConfigError(`${where}: the select field "${f.key}" needs \`options\``);
    if (f.type === 'checkbox' && f.secret) throw new PluginConfigError(`${where}: the checkbox "${f.key}" cannot be secret`);
  }
}

/**
 * The integration types of an instance, by `type`, each with its plugin's context (built by createFormloom
 * from every plugin's `integrations`). Two plugins may not provide one type.
 */
export class IntegrationRegistry {
  private readonly types = new Map<string, RegisteredIntegration>();

  constructor(
    private readonly transport: () => WebhookTransport,
    private readonly config: FormloomConfig,
  ) {}

  add(plugin: string, definitions: unknown, ctx: PluginContext) {
    if (definitions === undefined) return;
    if (!Array.isArray(definitions)) throw new PluginConfigError(`plugin "${plugin}": \`integrations\` must be an array of integration types`);
    const http = integrationHttp(this.transport, this.config);
    for (const d of definitions as IntegrationType[]) {
      if (!d || typeof d.type !== 'string' || !TYPE.test(d.type)) throw new PluginConfigError(`plugin "${plugin}": an integration needs a lower-case \`type\` (letters, digits, -)`);
      if (typeof d.deliver !== 'function') throw new PluginConfigError(`plugin "${plugin}", integration "${d.type}": \`deliver\` must be a function`);
      if (!d.title || !d.description) throw new PluginConfigError(`plugin "${plugin}", integration "${d.type}": needs a \`title\` and a \`description\``);
      checkFields(plugin, d.type, d.fields ?? []);
      const taken = this.types.get(d.type);
      if (taken) throw new PluginConfigError(`Two integrations of the type "${d.type}": plugin "${taken.plugin}" and plugin "${plugin}"`);
      this.types.set(d.type, { plugin, definition: { ...d, fields: d.fields ?? [] }, ctx: Object.assign(Object.create(ctx) as PluginContext, { http }) as IntegrationContext });
    }
  }

  get(type: string): RegisteredIntegration | null {
    return this.types.get(type) ?? null;
  }

  list(): RegisteredIntegration[] {
    return [...this.types.values()];
  }
}
