/** Stylesheets imported as text: the bundler inlines them (scripts/bundle.mjs). */
declare module '*.css' {
  const text: string;
  export default text;
}

/** Language files beside the bundle, by language (scripts/bundle.mjs defines it at build time). */
declare const FORMLOOM_LANGUAGE_FILES: Record<string, string>;
