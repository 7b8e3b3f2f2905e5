export * from './translation-settings';
export * from './translatable-texts';
