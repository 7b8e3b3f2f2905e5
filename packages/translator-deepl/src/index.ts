export * from './deepl-translator';
