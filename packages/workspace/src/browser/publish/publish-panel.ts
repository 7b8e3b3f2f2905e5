import { css, html, nothing } from 'lit';
import { BuilderPanel } from '../builder/panel';
import { ApiError } from '../../data/client';
import { publishForm, unpublishForm } from '../../data/forms';
import { listVersions, type Version } from '../../data/versions';
import { computeChangelog, type Snapshot } from '../../../../core/src/forms/changelog.js';
import { themeOnlyFields } from '../../data/theme';
import { formPath } from '../shell/routes';
import '../controls/confirm-dialog';
import type { FlConfirm } from '../controls/confirm-dialog';
import { isBlank, unfinishedQuestions } from '../builder/draft-hold';

interface Block {
  reason: string;
  message: string;
  question_ids: string[];
  upgrade_required?: boolean;
}

/**
 * `<fl-publish-panel>`: publishing (docs/workspace.md, "Publishing"): the changelog the next version will
 * carry (computed as the server does, from the last published snapshot), publish, unpublish, and the publish
 * checks' refusals shown beside the questions they name (the builder's list and editor get `fl-problems`).
 */
export class FlPublishPanel extends BuilderPanel {
  static override styles = [
    ...BuilderPanel.styles,
    css`
      .notice { margin: 0; padding: 0.75rem; border-radius: var(--_radius); background: color-mix(in srgb, var(--_warning) 14%, transparent); }
    `,
  ];
  static override properties = { ...BuilderPanel.properties, versions: { state: true }, block: { state: true }, busy: { state: true }, done: { state: true }, error: { state: true } };
  versions: Version[] | null = null;
  /** Theme fields the draft lacks, so that the comparison sees the form as the server will snapshot it. */
  themeOnly: Record<string, unknown> = {};
  block: Block | null = null;
  busy = false;
  done = '';
  error = '';

  override connectedCallback() {
    super.connectedCallback();
    void this.loadVersions();
  }

  private async loadVersions() {
    try {
      [this.versions, this.themeOnly] = await Promise.all([listVersions(this.store.api, this.store.formId), themeOnlyFields(this.store.api, this.store.formId)]);
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  private changelog() {
    const latest = this.versions?.[0];
    return computeChangelog(latest ? (latest.snapshot as unknown as Snapshot) : null, { ...this.form, ...this.themeOnly } as unknown as Snapshot);
  }

  private problems(block: Block | null) {
    const map = new Map<string, string[]>();
    for (const id of block?.question_ids ?? []) map.set(id, [block!.message]);
    this.dispatchEvent(new CustomEvent('fl-problems', { detail: map, bubbles: true, composed: true }));
  }

  /**
   * Publishing a form without questions is allowed by the API: its page is a title and a Submit button,
   * and each press stores an empty response. The owner is warned and asked first (issue 34).
   */
  private async confirmEmpty(): Promise<boolean> {
    if (this.form.questions.length) return true;
    return (this.renderRoot.querySelector('fl-confirm') as FlConfirm).ask({
      heading: 'Publish a form without questions?',
      body: 'Respondents will see only its title and a Submit button, and each press stores an empty response.',
      confirmText: 'Publish anyway',
    });
  }

  /** Questions still unfinished in the browser (no title, no choice) block publishing, shown beside them. */
  private unfinishedBlock(): Block | null {
    const unfinished = unfinishedQuestions(this.form);
    if (isBlank(this.form.title)) return { reason: 'unfinished', message: 'The form needs a name (at the top) before it is published.', question_ids: [] };
    if (!unfinished.size) return null;
    const [why] = unfinished.values();
    const message = unfinished.size === 1 ? `One question is not finished (${why!.toLowerCase()}): finish it or delete it before publishing.` : `${unfinished.size} questions are not finished (a title or a choice is missing): finish or delete them before publishing.`;
    return { reason: 'unfinished', message, question_ids: [...unfinished.keys()] };
  }

  private async publish() {
    const local = this.unfinishedBlock();
    if (local) {
      this.block = local;
      this.problems(local);
      return;
    }
    if (!(await this.confirmEmpty())) return;
    this.busy = true;
    this.done = '';
    this.error = '';
    try {
      if (!(await this.store.flush())) throw new Error(`Your last changes are not saved: ${this.store.error}`);
      const published = await publishForm(this.store.api, this.store.formId, this.store.etag);
      this.block = null;
      this.problems(null);
      await this.store.reload();
      this.done = `Version ${published.version.version} is live.`;
      await this.loadVersions();
    } catch (e) {
      const err = e as ApiError;
      if (err instanceof ApiError && err.status === 409 && err.details) {
        this.block = err.details as Block;
        this.problems(this.block);
      } else {
        this.error = err.message;
      }
    } finally {
      this.busy = false;
    }
  }

  private async unpublish() {
    const ok = await (this.renderRoot.querySelector('fl-confirm') as FlConfirm).ask({
      heading: 'Take the form offline?',
      body: 'Its link stops working until you publish again. Responses and versions are kept.',
      confirmText: 'Unpublish',
      danger: true,
    });
    if (!ok) return;
    this.busy = true;
    try {
      await this.store.flush();
      await unpublishForm(this.store.api, this.store.formId, this.store.etag);
      await this.store.reload();
      this.done = 'The form is offline.';
    } catch (e) {
      this.error = (e as Error).message;
    } finally {
      this.busy = false;
    }
  }

  /** Opens the Questions tab on that question (the builder listens for `fl-goto-question`). */
  private goTo(e: Event, id: string) {
    e.preventDefault();
    this.dispatchEvent(new CustomEvent('fl-goto-question', { detail: { id }, bubbles: true, composed: true }));
  }

  private renderBlock(b: Block) {
    const named = this.form.questions.map((q, i) => ({ q, i })).filter(({ q }) => b.question_ids.includes(q.id));
    return html`<div class="card" role="alert" style="border-color:var(--_danger)">
      <h3 class="error-text">It cannot be published yet</h3>
      <p>${b.message}${b.upgrade_required ? ' (needs a higher plan)' : ''}</p>
      ${named.length
        ? html`<ul>${named.map(({ q, i }) => html`<li><a href=${this.base === null ? '#' : formPath(this.base, this.store.formId)} @click=${(e: Event) => this.goTo(e, q.id)}>Question ${i + 1}: ${q.title || 'Untitled'}</a></li>`)}</ul>
          <p class="muted">These questions are marked in the Questions tab, with this message beside them.</p>`
        : nothing}
    </div>`;
  }

  override render() {
    const f = this.form;
    const log = this.versions ? this.changelog() : [];
    const nothingNew = f.published && !f.has_unpublished_changes;
    return html`<div class="sections" style="max-width:48rem">
      <section class="card" aria-labelledby="p-h">
        <h2 id="p-h">${f.published ? 'Published' : 'Not published yet'}</h2>
        <p class="muted">${f.published
          ? nothingNew ? 'Respondents see the latest version. Edit the questions to prepare the next one.' : 'You have changes that respondents do not see yet.'
          : 'Publish to get a link respondents can open. Drafts are never shown.'}</p>
        ${f.questions.length ? nothing : html`<p class="notice" role="note"><strong>This form has no questions.</strong> Respondents would see only its title and a Submit button, and each press would store an empty response.</p>`}
        <h3>What the next version changes</h3>
        ${this.versions === null ? html`<p class="muted" role="status">Loading…</p>`
          : nothingNew ? html`<p class="muted">Nothing: the draft is what is live.</p>`
          : log.length ? html`<ul class="changes">${log.map((c) => html`<li>${c.description}</li>`)}</ul>`
          : html`<p class="muted">No change since the last version.</p>`}
        <div class="row">
          <button class="btn primary" type="button" ?disabled=${this.busy || nothingNew} @click=${() => void this.publish()}>${f.published ? 'Publish changes' : 'Publish'}</button>
          ${f.published ? html`<button class="btn danger" type="button" ?disabled=${this.busy} @click=${() => void this.unpublish()}>Unpublish</button>` : nothing}
        </div>
        <p role="status" aria-live="polite" style="margin:0">${this.done}</p>
        ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      </section>
      ${this.block ? this.renderBlock(this.block) : nothing}
      <fl-confirm></fl-confirm>
    </div>`;
  }
}
customElements.get('fl-publish-panel') || customElements.define('fl-publish-panel', FlPublishPanel);
