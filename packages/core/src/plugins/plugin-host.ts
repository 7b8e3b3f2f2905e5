import type { FormloomConfig } from '../config';
import type { FormloomEvents } from '../events';
import type { Storage } from '../ports/storage';
import type { SpeechEngine } from '../ports/speech-engine';
import { PORT_NAMES, type FormloomPlugin, type PluginContext, type PluginLogger, type PortAdapters, type PortName } from './plugin';

/** A plugin list that cannot make an instance: a missing name, a name used twice, two adapters for one port. */
export class PluginConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PluginConfigError';
  }
}

/**
 * Checks every plugin's shape and that names are unique; throws PluginConfigError naming the culprit
 * (by name, or by position among the host's plugins, which come after the `builtIn` first ones).
 */
export function checkPlugins(plugins: readonly unknown[], builtIn = 0): asserts plugins is FormloomPlugin[] {
  const describe = (p: unknown, i: number) =>
    p && typeof p === 'object' && typeof (p as FormloomPlugin).name === 'string' ? `plugin "${(p as FormloomPlugin).name}"` : `plugin #${i + 1 - builtIn}`;
  const seen = new Set<string>();
  plugins.forEach((p, i) => {
    if (!p || typeof p !== 'object') throw new PluginConfigError(`${describe(p, i)} is not a plugin object ({ name, version, ... })`);
    const { name, version } = p as FormloomPlugin;
    if (typeof name !== 'string' || !/^[a-z0-9][a-z0-9._@/-]*$/.test(name)) {
      throw new PluginConfigError(`${describe(p, i)} needs a lower-case \`name\` (letters, digits, . _ - @ /)`);
    }
    if (typeof version !== 'string' || !version) throw new PluginConfigError(`plugin "${name}" needs a \`version\` string`);
    if (seen.has(name)) throw new PluginConfigError(`Two plugins are named "${name}": plugin names must be unique`);
    seen.add(name);
    for (const key of ['outboxHandlers', 'routes', 'speechEngines'] as const) {
      const v = (p as FormloomPlugin)[key];
      if (v !== undefined && typeof v !== 'function') throw new PluginConfigError(`plugin "${name}": \`${key}\` must be a function of the plugin context`);
    }
    for (const port of Object.keys((p as FormloomPlugin).adapters ?? {})) {
      if (!PORT_NAMES.includes(port as PortName)) throw new PluginConfigError(`plugin "${name}" provides an adapter for "${port}", which is not a port (${PORT_NAMES.join(', ')})`);
    }
  });
}

/**
 * The adapter of each port: the host's option or one plugin's. Two providers for one port are refused,
 * so which adapter runs never depends on the order of the plugin list.
 */
export function chooseAdapters(
  hostAdapters: Partial<PortAdapters>,
  plugins: readonly FormloomPlugin[],
  build: { storage: Storage; config: FormloomConfig },
): Partial<PortAdapters> {
  const chosen: Partial<Record<PortName, { by: string; value: unknown }>> = {};
  for (const port of PORT_NAMES) if (hostAdapters[port] !== undefined) chosen[port] = { by: 'the host options', value: hostAdapters[port] };
  for (const plugin of plugins) {
    for (const [port, source] of Object.entries(plugin.adapters ?? {}) as [PortName, unknown][]) {
      if (source === undefined) continue;
      const taken = chosen[port];
      if (taken) throw new PluginConfigError(`Two adapters for the ${port} port: ${taken.by} and plugin "${plugin.name}"`);
      const value = typeof source === 'function' ? source({ ...build, options: plugin.options }) : source;
      chosen[port] = { by: `plugin "${plugin.name}"`, value };
    }
  }
  return Object.fromEntries(Object.entries(chosen).map(([k, v]) => [k, v!.value])) as Partial<PortAdapters>;
}

/** The logger a plugin sees: the host's, with the plugin's name on every line. */
export function pluginLogger(base: PluginLogger, name: string): PluginLogger {
  return {
    info: (m, d) => base.info(`[${name}] ${m}`, d),
    warn: (m, d) => base.warn(`[${name}] ${m}`, d),
    error: (m, d) => base.error(`[${name}] ${m}`, d),
  };
}

export const consoleLogger: PluginLogger = {
  info: (m, d) => console.info(m, d ?? ''),
  warn: (m, d) => console.warn(m, d ?? ''),
  error: (m, d) => console.error(m, d ?? ''),
};

/** Subscribes a plugin's listeners; a listener that throws or rejects is logged and never reaches the emitter. */
export function attachListeners(events: FormloomEvents, plugin: FormloomPlugin, ctx: PluginContext) {
  for (const [event, listener] of Object.entries(plugin.on ?? {})) {
    if (typeof listener !== 'function') throw new PluginConfigError(`plugin "${plugin.name}": the listener for "${event}" is not a function`);
    const report = (e: unknown) => ctx.logger.error(`listener for ${event} failed`, { error: e instanceof Error ? e.message : String(e) });
    events.on(event as 'form.created', (payload: unknown) => {
      try {
        Promise.resolve((listener as (p: unknown, c: PluginContext) => unknown)(payload, ctx)).catch(report);
      } catch (e) {
        report(e);
      }
    });
  }
}

/** Subscribes a plugin's listeners that run inside the transaction of their event. */
export function attachTransactionalListeners(events: FormloomEvents, plugin: FormloomPlugin, ctx: PluginContext) {
  for (const [event, listener] of Object.entries(plugin.inTransaction ?? {})) {
    if (event !== 'response.submitted') throw new PluginConfigError(`plugin "${plugin.name}": "${event}" has no listeners inside its transaction (only response.submitted)`);
    if (typeof listener !== 'function') throw new PluginConfigError(`plugin "${plugin.name}": the in-transaction listener for "${event}" is not a function`);
    events.withinTransaction(event, (payload, tx) => listener(payload, tx, ctx));
  }
}

/** The host's speech engines, then each plugin's; two engines with one `id` are refused. */
export function collectSpeechEngines(
  host: readonly SpeechEngine[],
  plugins: readonly FormloomPlugin[],
  build: { storage: Storage; config: FormloomConfig },
): SpeechEngine[] {
  const owners = new Map<string, string>();
  const engines: SpeechEngine[] = [];
  const add = (engine: SpeechEngine, by: string) => {
    const taken = owners.get(engine.id);
    if (taken) throw new PluginConfigError(`Two speech engines with the id "${engine.id}": ${taken} and ${by}`);
    owners.set(engine.id, by);
    engines.push(engine);
  };
  for (const e of host) add(e, 'the host options');
  for (const p of plugins) for (const e of p.speechEngines?.({ ...build, options: p.options }) ?? []) add(e, `plugin "${p.name}"`);
  return engines;
}
