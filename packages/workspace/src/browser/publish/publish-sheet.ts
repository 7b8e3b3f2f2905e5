import { LitElement, css, html, nothing } from 'lit';
import QRCode from 'qrcode';
import { tokens, controls } from '../controls/styles';
import { ApiError } from '../../data/client';
import { publishForm } from '../../data/forms';
import { formPath } from '../shell/routes';
import { isBlank, unfinishedQuestions } from '../builder/draft-hold';
import type { FormStore } from '../builder/store';

/** A refusal to publish: the builder's own unfinished-question check or the server's 409 body. */
interface Block {
  message: string;
  question_ids: string[];
  upgrade_required?: boolean;
}

/**
 * `<fl-publish-sheet>`: what the header's Publish button opens (docs/workspace.md, "Publishing"): publish
 * (or publish the changes), then the live link with Copy, Open and its QR code. "Changes and versions"
 * leads to the Publish tab, which keeps the diff of the next version and Unpublish. A modal `<dialog>`:
 * focus moves in and back, Escape closes it.
 */
export class FlPublishSheet extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      dialog { border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 1.5); padding: 1.25rem; width: min(32rem, calc(100vw - 2rem)); box-sizing: border-box; background: var(--_surface); color: var(--_text); }
      dialog::backdrop { background: rgb(0 0 0 / 0.45); }
      h2 { margin: 0 0 0.5rem; }
      p { margin: 0.5rem 0 0; line-height: 1.45; }
      .actions { display: flex; gap: 0.5rem; justify-content: flex-end; flex-wrap: wrap; margin-top: 1rem; }
      .link { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; margin-top: 0.75rem; }
      .qr { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; margin-top: 0.75rem; }
      .qr img { width: 8rem; height: 8rem; background: #fff; border-radius: var(--_radius); border: 1px solid var(--_border); image-rendering: pixelated; }
      .notice { padding: 0.6rem 0.75rem; border-radius: var(--_radius); background: color-mix(in srgb, var(--_warning) 14%, transparent); }
    `,
  ];
  static override properties = { store: { attribute: false }, base: { attribute: false }, canPublish: { attribute: false }, pagesBase: { attribute: false }, view: { state: true }, busy: { state: true }, block: { state: true }, error: { state: true }, qr: { state: true }, copied: { state: true }, justPublished: { state: true } };
  store!: FormStore;
  base: string | null = null;
  pagesBase = '';
  /** False for a role that may not publish (an editor of a team form), or on the Publish tab: the link only. */
  canPublish = true;
  /** `publish`: asks to publish; `live`: the link. */
  view: 'publish' | 'live' = 'publish';
  busy = false;
  block: Block | null = null;
  error = '';
  qr = '';
  copied = '';
  justPublished = '';
  private qrFor = '';

  get url() {
    return `${location.origin}${this.pagesBase}/f/${encodeURIComponent(this.store.draft.slug)}`;
  }

  /** Opens on the link when everything is live, else on publishing. */
  async open() {
    const f = this.store.draft;
    this.view = !this.canPublish || (f.published && !f.has_unpublished_changes) ? 'live' : 'publish';
    this.block = null;
    this.error = '';
    this.copied = '';
    this.justPublished = '';
    await this.updateComplete;
    this.renderRoot.querySelector('dialog')?.showModal();
  }

  close() {
    this.renderRoot.querySelector('dialog')?.close();
  }

  override willUpdate() {
    if (!this.store || this.view !== 'live' || this.qrFor === this.url) return;
    this.qrFor = this.url;
    void QRCode.toDataURL(this.url, { margin: 1, width: 320, errorCorrectionLevel: 'M' }).then((d) => (this.qr = d));
  }

  /** The same checks as the Publish tab: unfinished questions are named beside them, not sent. */
  private localBlock(): Block | null {
    const f = this.store.draft;
    if (isBlank(f.title)) return { message: 'The form needs a name (at the top) before it is published.', question_ids: [] };
    const unfinished = unfinishedQuestions(f);
    if (!unfinished.size) return null;
    const [why] = unfinished.values();
    const message = unfinished.size === 1 ? `One question is not finished (${why!.toLowerCase()}): finish it or delete it before publishing.` : `${unfinished.size} questions are not finished (a title or a choice is missing): finish or delete them before publishing.`;
    return { message, question_ids: [...unfinished.keys()] };
  }

  private problems(block: Block | null) {
    const map = new Map<string, string[]>();
    for (const id of block?.question_ids ?? []) map.set(id, [block!.message]);
    this.dispatchEvent(new CustomEvent('fl-problems', { detail: map, bubbles: true, composed: true }));
  }

  private async publish() {
    this.block = this.localBlock();
    this.problems(this.block);
    if (this.block) return;
    this.busy = true;
    this.error = '';
    try {
      if (!(await this.store.flush())) throw new Error(`Your last changes are not saved: ${this.store.error}`);
      const published = await publishForm(this.store.api, this.store.formId, this.store.etag);
      await this.store.reload();
      this.justPublished = `Version ${published.version.version} is live.`;
      this.view = 'live';
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLInputElement>('#pub-link')?.focus();
    } catch (e) {
      const err = e as ApiError;
      if (err instanceof ApiError && err.status === 409 && err.details) {
        this.block = err.details as Block;
        this.problems(this.block);
      } else this.error = err.message;
    } finally {
      this.busy = false;
    }
  }

  private async copy() {
    try {
      await navigator.clipboard.writeText(this.url);
      this.copied = 'Link copied.';
    } catch {
      this.copied = 'Select the link and copy it.';
    }
  }

  /** The Publish tab (changes of the next version, Unpublish), as a link in the workspace or a tab change alone. */
  private tabLink(label: string) {
    const go = (e: Event) => {
      this.close();
      if (this.base !== null) return;
      e.preventDefault();
      this.dispatchEvent(new CustomEvent('fl-goto-tab', { detail: { tab: 'publish' }, bubbles: true, composed: true }));
    };
    return html`<a href=${this.base === null ? '#' : formPath(this.base, this.store.formId, 'publish')} @click=${go}>${label}</a>`;
  }

  private renderPublish() {
    const f = this.store.draft;
    const changes = f.published && f.has_unpublished_changes;
    return html`<h2 id="pub-h">${changes ? 'Publish your changes?' : 'Publish this form?'}</h2>
      <p>${changes ? 'Respondents see the last published version until you publish these changes.' : 'Respondents can open it at its link once it is published. Drafts are never shown.'}</p>
      ${f.questions.length ? nothing : html`<p class="notice" role="note"><strong>This form has no questions.</strong> Respondents would see only its title and a Submit button, and each press would store an empty response.</p>`}
      <p>${this.tabLink('See what the next version changes')}</p>
      ${this.block ? html`<p class="error-text" role="alert">${this.block.message}${this.block.upgrade_required ? ' (needs a higher plan)' : ''}${this.block.question_ids.length ? ' The questions are marked in the Questions tab.' : ''}</p>` : nothing}
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      <div class="actions">
        <button class="btn" type="button" @click=${() => this.close()}>Cancel</button>
        <button class="btn primary" type="button" ?disabled=${this.busy} @click=${() => void this.publish()}>${this.busy ? 'Publishing…' : changes ? 'Publish changes' : f.questions.length ? 'Publish' : 'Publish anyway'}</button>
      </div>`;
  }

  private renderLive() {
    const f = this.store.draft;
    return html`<h2 id="pub-h">${this.justPublished ? 'Your form is live' : 'Published'}</h2>
      <p role="status" aria-live="polite">${this.justPublished || (f.has_unpublished_changes ? 'You have changes that respondents do not see yet.' : 'Respondents see the latest version.')}</p>
      <div class="link"><label class="field">Link to share<input id="pub-link" type="text" readonly .value=${this.url} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} /></label>
        <button class="btn primary" type="button" @click=${() => void this.copy()}>Copy link</button></div>
      <div class="qr">${this.qr ? html`<img src=${this.qr} alt="QR code of ${this.url}" />` : nothing}
        <div class="row" style="display:grid;gap:0.5rem">
          <a class="btn" href=${this.url} target="_blank" rel="noopener">Open<span class="sr-only"> the form (new tab)</span></a>
          ${this.qr ? html`<a class="btn" href=${this.qr} download="${f.slug}-qr.png">Download the QR code</a>` : nothing}
        </div></div>
      ${this.canPublish ? html`<p>${this.tabLink('Changes and versions')}</p>` : nothing}
      <p class="muted" role="status" aria-live="polite">${this.copied}</p>
      <div class="actions"><button class="btn" type="button" @click=${() => this.close()}>Close</button></div>`;
  }

  override render() {
    if (!this.store) return nothing;
    return html`<dialog aria-labelledby="pub-h">${this.view === 'live' ? this.renderLive() : this.renderPublish()}</dialog>`;
  }
}
customElements.get('fl-publish-sheet') || customElements.define('fl-publish-sheet', FlPublishSheet);
