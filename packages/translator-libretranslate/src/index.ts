export * from './libretranslate-translator';
