export * from './storage';
export * from './clock';
export * from './id-generator';
export * from './plans';
export * from './payments';
