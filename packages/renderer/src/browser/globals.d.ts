/** Stylesheets imported as text: the bundler inlines them (scripts/bundle.mjs). */
declare module '*.css' {
  const text: string;
  export default text;
}

/** Language files beside the bundle, by language (scripts/bundle.mjs defines it at build time). */
declare const FORMLOOM_LANGUAGE_FILES: Record<string, string>;

/** The on-demand bundle's file name beside the script (scripts/bundle.mjs; questions/on-demand-control.ts). */
declare const FORMLOOM_ON_DEMAND_FILE: string;
