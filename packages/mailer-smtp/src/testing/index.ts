export * from './smtp-test-server';
export * from './parse-message';
