import { h } from './dom.js';
import type { Translate } from './i18n/index.js';
import { button } from './screens.js';

/**
 * The page's chrome around the question (docs/respondents.md): the progress bar along the respondent's own
 * path, the question navigation (previous, where they are, next), which the theme may turn off, and the banner
 * that says a connection was lost.
 */
export class PageChrome {
  readonly progress: HTMLElement;
  readonly nav: HTMLElement;
  readonly banner = h('div', { class: 'fl-banner', role: 'alert', hidden: true });

  constructor(
    private readonly t: Translate,
    private readonly theme: Record<string, any>,
  ) {
    this.progress = h('div', { class: 'fl-progress', role: 'progressbar', 'aria-label': t('progress'), 'aria-valuemin': 0, 'aria-valuemax': 100 }, h('div', { class: 'fl-bar' }));
    this.nav = h('nav', { class: 'fl-nav', 'aria-label': t('navigation') });
    this.progress.hidden = theme.show_progress_bar === false;
    this.nav.hidden = true;
  }

  /** Fills the progress bar to `pct` percent. */
  fill(pct: number): void {
    this.progress.setAttribute('aria-valuenow', String(pct));
    (this.progress.firstChild as HTMLElement).style.width = `${pct}%`;
  }

  /**
   * Question `at` (from 0) of the `path` the respondent's answers so far lead along: the questions logic skips
   * are not counted (the path may grow or shrink as answers change it).
   */
  paint(path: readonly string[], id: string, canGoBack: boolean, back: () => void, next: () => void): void {
    const at = Math.max(0, path.indexOf(id));
    const total = Math.max(path.length, at + 1);
    this.fill(Math.round((at / total) * 100));
    if (this.theme.show_question_nav === false) return;
    this.nav.hidden = false;
    this.nav.replaceChildren(button('↑', back, 'fl-arrow'), h('span', { class: 'fl-counter' }, `${at + 1} / ${total}`), button('↓', next, 'fl-arrow'));
    const [up, , down] = this.nav.children as unknown as HTMLButtonElement[];
    up!.setAttribute('aria-label', this.t('previous'));
    up!.disabled = !canGoBack;
    down!.setAttribute('aria-label', this.t('next'));
  }

  /** The connection was lost (or `text` went wrong): every answer is kept, and `retry` tries again. */
  offline(retry: (() => void) | null, text?: string): void {
    this.banner.hidden = false;
    this.banner.replaceChildren(h('span', {}, this.t('connection_lost_kept')), retry ? button(this.t('retry'), retry, 'fl-button fl-retry') : '');
    if (text !== undefined) this.banner.firstChild!.textContent = text;
  }
}
