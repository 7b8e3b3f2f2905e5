// The logic shared by the respondent's page and the server (docs/decisions.md "Logic and validations").
export * from './conditions.js';
export * from './jumps.js';
export * from './actions.js';
export * from './validations.js';
export * from './rules.js';
export * from './recall.js';
export * from './recall-texts.js';
