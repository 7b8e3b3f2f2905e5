export { startSelfHosted, createApp, SERVER_TIMEOUTS, type SelfHosted } from './app';
export { readSelfHostedConfig, type SelfHostedConfig } from './config';
