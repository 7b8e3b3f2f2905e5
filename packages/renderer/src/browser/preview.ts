import { ApiError, PublicApi } from './api.js';
import { h } from './dom.js';
import { FormView } from './form-view.js';
import { screen, thankYou } from './screens.js';
import { applyTheme, loadThemeFonts, themeSheet } from './theme.js';
import type { PublicForm } from './types.js';
import { translator } from './i18n/index.js';
import { loadOnDemand } from './questions/on-demand-control.js';
import { needsOnDemand } from '../on-demand.js';
import { MOUNT_URL } from './script-url.js';

/*
 * The builder's live preview (docs/workspace.md, "Preview"): `<formloom-form preview>` renders the form it is
 * given in `previewForm` instead of fetching one, and shows the step named by `preview-at` (a question id,
 * `welcome` or `thanks`). The same code paints it as a respondent's page, so what the owner sees is what
 * respondents get. Nothing is sent: the step is shown inert (no focus moves, no answers).
 */

/** An API for the preview that reaches no server: the preview never submits. */
class NoNetworkApi extends PublicApi {
  constructor() {
    super('about:blank');
  }
  override submit(): Promise<never> {
    return Promise.reject(new ApiError(0, 'This is a preview: nothing is sent'));
  }
  override patch(): Promise<never> {
    return this.submit();
  }
  override upload(): Promise<never> {
    return this.submit();
  }
  /** The welcome screen's preview runs `start()`: the builder's own views are never counted in the funnel. */
  override visit(): void {}
}

const STYLED = ['--fl-text', '--fl-button-text', '--fl-bg'];

/** Paints `form` at step `at` into `box` (inside `shadow`, of `host`), replacing what was there. */
export function paintPreview(host: HTMLElement, shadow: ShadowRoot, box: HTMLElement, base: CSSStyleSheet[], form: PublicForm, at: string | null): void {
  // A theme field that was cleared must not linger from the last paint.
  for (let i = host.style.length - 1; i >= 0; i--) {
    const prop = host.style.item(i);
    if (prop.startsWith('--fl-') || STYLED.includes(prop)) host.style.removeProperty(prop);
  }
  applyTheme(host, form.theme);
  // The builder gives `base-url` (its pages base): the preview may be imported where no script tag names it.
  loadThemeFonts(form.theme, host.getAttribute('base-url') || undefined);
  let sheet: CSSStyleSheet | null = null;
  try {
    sheet = themeSheet(form.theme);
  } catch {
    // CSS that does not parse yet (the owner is typing it) shows nothing rather than breaking the preview.
  }
  shadow.adoptedStyleSheets = sheet ? [...base, sheet] : base;
  box.inert = true;
  box.setAttribute('aria-busy', 'false');
  if (at === 'thanks') {
    box.replaceChildren(h('div', { class: 'fl-main' }, thankYou(translator(null, form.snapshot.strings), 2, form, { id: 'preview', completed_at: null, quiz_results: null }, null)));
    return;
  }
  // A payment question's control comes from the on-demand bundle, beside the script the builder imported.
  if (needsOnDemand(form.snapshot.questions)) loadOnDemand(host.getAttribute('base-url') || MOUNT_URL).catch(() => undefined);
  const view = new FormView(box, host, new NoNetworkApi(), form, '', 2, translator(null, form.snapshot.strings), false);
  const index = form.snapshot.questions.findIndex((q) => q.id === at);
  if (index >= 0) view.showQuestion(index);
  else if (at === 'welcome' || !form.snapshot.questions.length) view.start();
  else view.showQuestion(0);
}

/** What `<formloom-form preview>` shows before its form is given. */
export const emptyPreview = () => screen(2, 'Preview', 'The form appears here.');
