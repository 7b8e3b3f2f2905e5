import { h } from './dom.js';

/**
 * The language picker of a form offered in more than one language (docs/languages.md): a labelled native
 * select (keyboard and screen readers for free), each language named in itself ("Deutsch", "العربية").
 */
export function languagePicker(offered: string[], current: string, label: string, change: (lang: string) => void): HTMLElement {
  const nameOf = (tag: string) => {
    try {
      const name = new Intl.DisplayNames([tag], { type: 'language' }).of(tag);
      return name ? name.charAt(0).toLocaleUpperCase(tag) + name.slice(1) : tag;
    } catch {
      return tag;
    }
  };
  const select = h(
    'select',
    { class: 'fl-lang-select', id: 'fl-lang', 'aria-label': label },
    ...offered.map((tag) => h('option', { value: tag, lang: tag, selected: tag === current }, nameOf(tag))),
  ) as HTMLSelectElement;
  select.value = current;
  select.addEventListener('change', () => change(select.value));
  return h('div', { class: 'fl-lang' }, select);
}
