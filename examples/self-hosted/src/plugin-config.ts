import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FormloomPlugin, PortName } from '@formloom/core';
import type { Env } from './config';

/** What `formloom.config.mjs` holds (docs/plugins.md). */
export interface FormloomFileConfig {
  /** Plugins after the built-in areas, in order, each with its options (e.g. `notifyPlugin({ ... })`). */
  plugins: FormloomPlugin[];
}

export interface LoadedConfig extends FormloomFileConfig {
  /** The file read, or `null` when there is none (the defaults). */
  path: string | null;
}

/** A config file that cannot be used; the message names the file and what is wrong. */
export class ConfigFileError extends Error {
  constructor(path: string, problem: string, cause?: unknown) {
    super(`${path}: ${problem}`, cause === undefined ? undefined : { cause });
    this.name = 'ConfigFileError';
  }
}

/** `FORMLOOM_CONFIG` (which must exist), else `./formloom.config.mjs` when present, else none. */
export function configPath(env: Env, cwd = process.cwd()): string | null {
  const given = env.FORMLOOM_CONFIG?.trim();
  if (given) {
    const path = isAbsolute(given) ? given : resolve(cwd, given);
    if (!existsSync(path)) throw new ConfigFileError(path, 'FORMLOOM_CONFIG names a file that does not exist');
    return path;
  }
  const fallback = resolve(cwd, 'formloom.config.mjs');
  return existsSync(fallback) ? fallback : null;
}

/**
 * Reads the plugin list of the self-hosted app. The file is an ES module whose default export is
 * `{ plugins: [...] }`. A file that does not load, or holds something else, is a start-up error naming
 * the file; the plugins themselves are checked by `createFormloom` (names, adapters).
 */
export async function loadPluginConfig(env: Env, cwd = process.cwd()): Promise<LoadedConfig> {
  const path = configPath(env, cwd);
  if (!path) return { path: null, plugins: [] };
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (e) {
    throw new ConfigFileError(path, `could not be loaded: ${e instanceof Error ? e.message : String(e)}`, e);
  }
  const config = mod.default;
  if (!config || typeof config !== 'object' || Array.isArray(config)) {
    throw new ConfigFileError(path, 'the default export must be an object like `export default { plugins: [...] }`');
  }
  const unknown = Object.keys(config).filter((k) => k !== 'plugins');
  if (unknown.length) throw new ConfigFileError(path, `unknown setting${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (only \`plugins\`)`);
  const plugins = (config as { plugins?: unknown }).plugins ?? [];
  if (!Array.isArray(plugins)) throw new ConfigFileError(path, '`plugins` must be an array of plugins');
  return { path, plugins: plugins as FormloomPlugin[] };
}

/** The ports some plugin of the list provides an adapter for, so the app leaves out its default for them. */
export function portsProvided(plugins: readonly FormloomPlugin[]): Set<PortName> {
  const out = new Set<PortName>();
  for (const p of plugins) {
    if (p && typeof p === 'object' && p.adapters) for (const k of Object.keys(p.adapters)) out.add(k as PortName);
  }
  return out;
}
