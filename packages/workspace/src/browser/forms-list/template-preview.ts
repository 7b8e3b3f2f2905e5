import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Form } from '../../data/forms';
import { templateBody, type FormTemplate } from './template-kit';
import '../builder/preview-pane';

/** The template as a draft form, for the respondent's own element to paint (nothing is created). */
export function templateDraft(t: FormTemplate): Form {
  const body = templateBody(t) as unknown as Record<string, unknown>;
  return {
    ...body,
    id: `template_${t.id}`,
    slug: t.id,
    description: body.description ?? null,
    show_progress_bar: true,
    welcome_button_text: 'Start',
    questions: t.form.questions.map((q, position) => ({
      description: null,
      required: false,
      properties: {},
      validations: {},
      logic_jumps: [],
      ...q,
      form_id: `template_${t.id}`,
      position,
    })),
  } as unknown as Form;
}

/**
 * `<fl-template-preview>`: a template before it is used (docs/workspace.md "Templates"): its questions listed,
 * each shown as respondents will see it by the respondent's own element, with its theme. `show(t)` opens the
 * dialog and resolves true when the person chooses "Use this template". Escape or "Close" resolves false.
 */
export class FlTemplatePreview extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      dialog { border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 1.5); padding: 0; width: min(64rem, calc(100vw - 1rem)); max-height: calc(100dvh - 1rem);
        background: var(--_surface); color: var(--_text); }
      dialog::backdrop { background: rgb(0 0 0 / 0.5); }
      .inner { display: grid; gap: 1rem; padding: 0 1rem 1rem; }
      /* The name and "Use this template" stay in view while the steps and the preview scroll. */
      .top { display: flex; justify-content: space-between; gap: 0.75rem; align-items: start; flex-wrap: wrap; position: sticky; top: 0; z-index: 1; background: var(--_surface); padding: 1rem 0 0.5rem; border-bottom: 1px solid var(--_border); }
      fl-preview { scroll-margin-top: 11rem; }
      .top p { margin: 0.25rem 0 0; }
      .cols { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr) minmax(0, 1.3fr); align-items: start; }
      /* On a phone the preview comes first, the list of steps under it. */
      @media (max-width: 760px) { .cols { grid-template-columns: minmax(0, 1fr); } fl-preview { order: -1; } }
      ol { margin: 0; padding: 0; list-style: none; display: grid; gap: 0.35rem; counter-reset: q; }
      ol button { all: unset; box-sizing: border-box; width: 100%; cursor: pointer; display: grid; grid-template-columns: 1.75rem minmax(0, 1fr); gap: 0.4rem; padding: 0.45rem 0.55rem;
        border: 1px solid var(--_border); border-radius: var(--_radius); font-size: 0.9rem; line-height: 1.35; }
      ol button:focus-visible { outline: 2px solid var(--_primary); outline-offset: 2px; }
      ol button[aria-current='step'] { border-color: var(--_primary); box-shadow: 0 0 0 1px var(--_primary); }
      .n { color: var(--_muted); font-variant-numeric: tabular-nums; }
      .logic { font-size: 0.75rem; color: var(--_muted); display: block; }
      .actions { display: flex; gap: 0.5rem; flex-wrap: wrap; }
      h2 { margin: 0; font-size: 1.25rem; }
    `,
  ];
  static override properties = { template: { state: true }, at: { state: true }, pagesBase: { attribute: 'pages-base' }, busy: { type: Boolean } };
  template: FormTemplate | null = null;
  at = 'welcome';
  pagesBase = '';
  busy = false;
  private resolve: ((use: boolean) => void) | null = null;

  async show(t: FormTemplate): Promise<boolean> {
    this.template = t;
    this.at = t.form.welcome_title ? 'welcome' : t.form.questions[0]!.id;
    await this.updateComplete;
    this.renderRoot.querySelector('dialog')!.showModal();
    this.renderRoot.querySelector<HTMLElement>('.use')?.focus();
    return new Promise((ok) => (this.resolve = ok));
  }

  /** Shows a step; on a phone, where the preview is above the list, brings it into view. */
  private showStep(id: string) {
    this.at = id;
    if (matchMedia('(max-width: 760px)').matches) this.renderRoot.querySelector('fl-preview')?.scrollIntoView({ block: 'start' });
  }

  private done(use: boolean) {
    this.renderRoot.querySelector('dialog')?.close();
    this.resolve?.(use);
    this.resolve = null;
  }

  override render() {
    const t = this.template;
    if (!t) return html`<dialog aria-label="Template"></dialog>`;
    const steps: Array<[string, string, string]> = [
      ...(t.form.welcome_title ? [['welcome', '·', `Welcome: ${t.form.welcome_title}`] as [string, string, string]] : []),
      ...t.form.questions.map((q, i): [string, string, string] => [q.id, String(i + 1), q.title.replace(/\{answer\.t_\w+(?:\|([^}]*))?\}/g, (_m, f: string | undefined) => f || '…')]),
      ['thanks', '✓', `Thank you: ${(t.form.thank_you_title ?? 'Thank you!').replace(/\{answer\.t_\w+(?:\|([^}]*))?\}/g, (_m, f: string | undefined) => f || '…')}`],
    ];
    const logicOf = (id: string) => (t.form.questions.find((q) => q.id === id)?.logic_jumps?.length ? 'Has logic' : '');
    return html`<dialog aria-labelledby="tp-h" @cancel=${() => this.done(false)}>
      <div class="inner">
        <div class="top">
          <div><h2 id="tp-h">${t.name}</h2><p class="muted">${t.summary} ${t.form.questions.length} questions.</p></div>
          <div class="actions">
            <button class="btn" type="button" @click=${() => this.done(false)}>Close</button>
            <button class="btn primary use" type="button" ?disabled=${this.busy} @click=${() => this.done(true)}>Use this template</button>
          </div>
        </div>
        <div class="cols">
          <nav aria-label="Questions of the template"><ol>
            ${steps.map(([id, n, title]) => html`<li><button type="button" aria-current=${this.at === id ? 'step' : nothing} @click=${() => this.showStep(id)}>
              <span class="n" aria-hidden="true">${n}</span><span>${title}${logicOf(id) ? html`<span class="logic">${logicOf(id)}</span>` : nothing}</span></button></li>`)}
          </ol></nav>
          <fl-preview .form=${templateDraft(t)} at=${this.at} pages-base=${this.pagesBase}></fl-preview>
        </div>
      </div>
    </dialog>`;
  }
}
customElements.get('fl-template-preview') || customElements.define('fl-template-preview', FlTemplatePreview);
