/** Stylesheets imported as text: the bundler inlines them (scripts/bundle.mjs). */
declare module '*.css' {
  const text: string;
  export default text;
}
