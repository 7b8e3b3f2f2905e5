import { html, nothing, css } from 'lit';
import { BuilderPanel } from './panel';
import { translatableTexts, extraLanguages, type TranslatableText } from '../../../../core/src/translations/translatable-texts.js';
import type { Question } from '../../../../core/src/domain/types.js';

/*
 * `<fl-languages>`: the form's languages and their translations (docs/languages.md, docs/workspace.md
 * "Languages"): the default language, the others added or removed, and a side-by-side view of every text in
 * the default language beside its translation in the chosen language, missing ones marked, machine
 * translations (auto_translate) named as such. Saved with the form like every other setting.
 */

/** Languages offered in the pickers: the page's own 12 first, then other common ones; any BCP 47 tag works through the API. */
const LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'it', 'nl', 'pl', 'ja', 'zh', 'ar', 'he', 'ru', 'uk', 'tr', 'sv', 'da', 'fi', 'no', 'cs', 'el', 'ko', 'hi', 'id'];
const RTL = ['ar', 'he', 'fa', 'ur'];
const nameOf = (tag: string) => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
};
const dirOf = (tag: string) => (RTL.includes(tag.split('-')[0]!) ? 'rtl' : 'ltr');

type Texts = Record<string, Record<string, string>>;

export class FlLanguages extends BuilderPanel {
  static override styles = [
    ...BuilderPanel.styles,
    css`
      .langs { display: flex; flex-wrap: wrap; gap: 0.5rem; list-style: none; margin: 0; padding: 0; }
      .langs li { display: inline-flex; align-items: center; gap: 0.25rem; border: 1px solid var(--_border); border-radius: 999px; padding: 0.125rem 0.25rem 0.125rem 0.75rem; }
      .add { display: flex; flex-wrap: wrap; gap: 0.5rem; align-items: end; }
      .rows { display: grid; gap: 0.75rem; }
      .row { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0.75rem; align-items: start; border-top: 1px solid var(--_border); padding-top: 0.75rem; }
      @media (max-width: 640px) { .row { grid-template-columns: minmax(0, 1fr); gap: 0.25rem; } }
      .source { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; }
      .where { font-size: 0.8125rem; font-weight: 600; display: block; margin-bottom: 0.25rem; }
      .badge { display: inline-block; font-size: 0.75rem; font-weight: 600; border-radius: 999px; padding: 0 0.5rem; margin-inline-start: 0.5rem; border: 1px solid currentColor; }
      .missing { color: var(--_danger, #b42318); }
      .machine { color: var(--_muted, #555); }
      textarea { width: 100%; box-sizing: border-box; min-height: 2.75rem; field-sizing: content; }
      .add { align-items: end; }
    `,
  ];
  static override properties = { ...BuilderPanel.properties, target: { state: true }, adding: { state: true } };
  target = '';
  adding = '';

  private get f(): Record<string, any> {
    return this.form as unknown as Record<string, any>;
  }

  private set(fields: Record<string, unknown>) {
    this.patch(fields as never);
  }

  private addLanguage() {
    const lang = this.adding;
    const langs = extraLanguages(this.f);
    if (!lang || langs.includes(lang) || lang === this.f.language) return;
    this.set({ languages: [...langs, lang] });
    this.target = lang;
    this.adding = '';
  }

  private removeLanguage(lang: string) {
    const langs = extraLanguages(this.f).filter((l) => l !== lang);
    const { [lang]: _t, ...translations } = (this.f.translations ?? {}) as Texts;
    const { [lang]: _m, ...marks } = (this.f.machine_translations ?? {}) as Record<string, string[]>;
    this.set({ languages: langs.length ? langs : null, translations: Object.keys(translations).length ? translations : null, machine_translations: Object.keys(marks).length ? marks : null });
    if (this.target === lang) this.target = '';
  }

  private setText(lang: string, path: string, text: string) {
    const table = { ...((this.f.translations ?? {}) as Texts) };
    const texts = { ...(table[lang] ?? {}) };
    if (text.trim()) texts[path] = text;
    else delete texts[path];
    table[lang] = texts;
    this.set({ translations: table });
  }

  /** Where a text is, in plain words ("Question 2 · choice"). */
  private where(path: string, questions: Question[]): string {
    const parts = path.split('.');
    if (parts[0] === 'strings') return `Page words · ${parts[1]}`;
    if (parts[0] === 'endings') {
      const endings = ((this.f.quiz_settings as { endings?: Array<{ id?: string }> } | null | undefined)?.endings ?? []);
      return `Quiz ending ${endings.findIndex((e) => e?.id === parts[1]) + 1} · ${parts[2] === 'title' ? 'title' : 'text'}`;
    }
    if (parts[0] !== 'questions') return ({ title: 'Form title', description: 'Form description', welcome_title: 'Welcome title', welcome_description: 'Welcome text', welcome_button_text: 'Welcome button', thank_you_title: 'Thank-you title', thank_you_description: 'Thank-you text' } as Record<string, string>)[path] ?? path;
    const n = questions.findIndex((q) => q.id === parts[1]) + 1;
    const what = parts[2] === 'choices' ? 'choice' : parts[2] === 'validations' ? 'error message' : (parts[2] ?? '').replace(/_/g, ' ');
    return `Question ${n} · ${what}`;
  }

  override render() {
    const f = this.f;
    const base: string | null = f.language ?? null;
    const langs = extraLanguages(f);
    const target = langs.includes(this.target) ? this.target : (langs[0] ?? '');
    const questions = (f.questions ?? []) as Question[];
    const texts = translatableTexts({ ...f }, questions);
    const table = ((f.translations ?? {}) as Texts)[target] ?? {};
    const machine = new Set(((f.machine_translations ?? {}) as Record<string, string[]>)[target] ?? []);
    const missing = texts.filter((t) => !(table[t.path] ?? '').trim()).length;
    const choices = LANGUAGES.filter((l) => l !== base && !langs.includes(l));
    return html`<section class="card" aria-labelledby="s-langs">
      <h2 id="s-langs">Languages</h2>
      <p class="muted hint">Respondents read the form in their language: the link's <code>?lang=</code>, else their browser's, else a picker on the page.</p>
      <label class="field">Default language (the one your texts are written in)
        <select .value=${base ?? ''} @change=${(e: Event) => this.set({ language: (e.target as HTMLSelectElement).value || null })}>
          <option value="" ?selected=${!base}>None: the page follows the respondent's browser</option>
          ${LANGUAGES.map((l) => html`<option value=${l} ?selected=${l === base}>${nameOf(l)}</option>`)}
          ${base && !LANGUAGES.includes(base) ? html`<option value=${base} selected>${nameOf(base)}</option>` : nothing}
        </select>
      </label>
      ${base
        ? html`<div>
            <h3 id="s-other">Other languages</h3>
            ${langs.length
              ? html`<ul class="langs" aria-labelledby="s-other">${langs.map((l) => html`<li>${nameOf(l)}<button type="button" class="ghost" aria-label=${`Remove ${nameOf(l)}`} @click=${() => this.removeLanguage(l)}>✕</button></li>`)}</ul>`
              : html`<p class="muted hint">None yet.</p>`}
            <div class="add">
              <label class="field">Add a language
                <select .value=${this.adding} @change=${(e: Event) => (this.adding = (e.target as HTMLSelectElement).value)}>
                  <option value="">Choose…</option>
                  ${choices.map((l) => html`<option value=${l}>${nameOf(l)}</option>`)}
                </select>
              </label>
              <button type="button" ?disabled=${!this.adding} @click=${() => this.addLanguage()}>Add</button>
            </div>
          </div>`
        : html`<p class="muted hint">Choose the default language first; then add the languages you translate into.</p>`}
      ${target ? this.translationView(base!, target, texts, table, machine, missing, langs, questions) : nothing}
    </section>`;
  }

  private translationView(base: string, target: string, texts: TranslatableText[], table: Record<string, string>, machine: Set<string>, missing: number, langs: string[], questions: Question[]) {
    return html`<div>
      <h3 id="s-tr">Translations</h3>
      <label class="field">Translate into
        <select .value=${target} @change=${(e: Event) => (this.target = (e.target as HTMLSelectElement).value)}>
          ${langs.map((l) => html`<option value=${l} ?selected=${l === target}>${nameOf(l)}</option>`)}
        </select>
      </label>
      <p class="hint" role="status">${missing ? `${missing} of ${texts.length} texts have no ${nameOf(target)} translation yet: respondents see ${nameOf(base)} there.` : `Every text has a ${nameOf(target)} translation.`}</p>
      <div class="rows" aria-labelledby="s-tr">
        ${texts.map((t, i) => {
          const value = table[t.path] ?? '';
          const id = `tr-${i}`;
          return html`<div class="row">
            <div>
              <span class="where" id=${`${id}-w`}>${this.where(t.path, questions)}</span>
              <p class="source" lang=${base} dir=${dirOf(base)}>${t.text}</p>
            </div>
            <div>
              <label class="where" for=${id}>${nameOf(target)}${!value.trim() ? html`<span class="badge missing">Missing</span>` : machine.has(t.path) ? html`<span class="badge machine">Machine translation</span>` : nothing}</label>
              <textarea id=${id} rows="1" lang=${target} dir=${dirOf(target)} aria-describedby=${`${id}-w`} .value=${value}
                @change=${(e: Event) => this.setText(target, t.path, (e.target as HTMLTextAreaElement).value)}></textarea>
            </div>
          </div>`;
        })}
      </div>
    </div>`;
  }
}

customElements.get('fl-languages') || customElements.define('fl-languages', FlLanguages);
