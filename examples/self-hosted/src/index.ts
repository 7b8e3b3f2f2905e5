export { startSelfHosted, createApp, SERVER_TIMEOUTS, type SelfHosted, type StartOptions } from './app';
export { readSelfHostedConfig, type SelfHostedConfig } from './config';
export { loadPluginConfig, configPath, ConfigFileError, type FormloomFileConfig } from './plugin-config';
export { readHttpConfig, RATE_LIMIT_VARIABLES, type HttpConfig } from './http-config';
export { checkConfiguration, configurationProblems, ConfigurationError } from './env-check';
