export * from './storage';
export * from './clock';
export * from './id-generator';
export * from './plans';
export * from './payments';
export * from './webhook-transport';
export * from './blob-store';
export * from './mailer';
