/// <reference types="node" preserve="true" />
// Its declarations use Buffer and node: streams: a plugin project compiles them with node's types (a dependency).
// The Reflect metadata polyfill must load before any decorated service of the areas.
import 'reflect-metadata';
export * from './errors';
export * from './tokens';
export * from './events';
export * from './domain/types';
export * from './domain/form-fields';
export * from './domain/signing';
export * from './domain/sign-in';
export * from './ports';
export * from './pagination';
export * from './api-schemas';
export * from './parse';
export * from './strings';
export * from './email-address';
export * from './config';
export * from './crypto-box';
export * from './clock';
export * from './ids';
export * from './version';
export * from './logger';
export * from './plugins/plugin';
export * from './plugins/routes';
export { answerProblem, checkRouteAnswer } from './plugins/answer-check';
export { PluginConfigError } from './plugins/plugin-host';
export * from './areas';
export * from './translations';
export * from './instance';
export * from './formloom';
export * from './sentences';
