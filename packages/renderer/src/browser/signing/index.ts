import { applyTheme } from '../theme.js';
import { SignerApi } from './api.js';
import { SigningView } from './signing-view.js';

/*
 * The signer's page entry (served with `/s/<short_code>` by @formloom/express): the page's `<main>` carries
 * the short code, the API's URL and the form's theme; this module does the rest.
 */
const root = document.getElementById('formloom-signing');
if (root) {
  let theme: Record<string, unknown> = {};
  try {
    theme = JSON.parse(root.dataset.theme ?? '{}') as Record<string, unknown>;
  } catch {
    // No theme: the defaults.
  }
  applyTheme(document.documentElement, theme);
  const api = new SignerApi(new URL(root.dataset.api ?? '/api/v1', document.baseURI).href, root.dataset.code ?? '');
  void new SigningView(root, api).load();
}
