export { startSelfHosted, createApp, type SelfHosted } from './app';
export { readSelfHostedConfig, type SelfHostedConfig } from './config';
export { loadPluginConfig, configPath, ConfigFileError, type FormloomFileConfig } from './plugin-config';
