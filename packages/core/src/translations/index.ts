export * from './translation-settings';
export * from './translatable-texts';
export * from './auto-translate';
