export { startSelfHosted, createApp, type SelfHosted } from './app';
export { readSelfHostedConfig, type SelfHostedConfig } from './config';
