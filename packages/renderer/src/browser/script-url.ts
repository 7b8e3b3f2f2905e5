/*
 * Where this script came from, which is where Formloom is mounted (docs/respondents.md "Embedding"). Read
 * once, while the bundle first runs: a classic `<script src>` is `document.currentScript` then; a
 * `type="module"` script is not, so the page's scripts are searched for ours by name.
 */
const OURS = /\/(?:embed\.js|formloom\/assets\/formloom-form\.[\w]+\.js)(?:[?#].*)?$/;

function find(): string {
  const current = document.currentScript as HTMLScriptElement | null;
  if (current?.src) return current.src;
  const scripts = [...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((s) => s.src);
  return scripts.reverse().find((s) => OURS.test(s)) ?? new URL('/embed.js', document.baseURI).href;
}

export const SCRIPT_URL = find();

/** The pages router's mount: the script's URL without `/embed.js` or `/formloom/assets/<file>`. */
export const MOUNT_URL = SCRIPT_URL.replace(/[?#].*$/, '').replace(/\/(?:embed\.js|formloom\/assets\/[^/]+)$/, '');
