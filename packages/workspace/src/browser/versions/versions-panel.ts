import { html, nothing } from 'lit';
import { BuilderPanel } from '../builder/panel';
import { listVersions, restoreVersion, type Version } from '../../data/versions';
import { computeChangelog, type Snapshot } from '../../../../core/src/forms/changelog.js';
import { themeOnlyFields } from '../../data/theme';
import { kindOf } from '../builder/kinds/registry';
import '../controls/confirm-dialog';
import type { FlConfirm } from '../controls/confirm-dialog';

/**
 * `<fl-versions-panel>`: the published versions (docs/workspace.md, "Versions"): each with its changelog;
 * open one to see its questions, compare it with the draft, or restore it as the draft (the server's
 * `POST /forms/:id/versions/:versionId/restore`; publishing then makes it live again).
 */
export class FlVersionsPanel extends BuilderPanel {
  static override properties = { ...BuilderPanel.properties, versions: { state: true }, open: { state: true }, error: { state: true }, done: { state: true }, busy: { state: true } };
  versions: Version[] | null = null;
  /** Theme fields the draft lacks, so that the comparison sees the form as the server will snapshot it. */
  themeOnly: Record<string, unknown> = {};
  open: string | null = null;
  error = '';
  done = '';
  busy = false;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      [this.versions, this.themeOnly] = await Promise.all([listVersions(this.store.api, this.store.formId), themeOnlyFields(this.store.api, this.store.formId)]);
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  private async restore(v: Version) {
    const ok = await (this.renderRoot.querySelector('fl-confirm') as FlConfirm).ask({
      heading: `Restore version ${v.version} as the draft?`,
      body: 'The draft becomes that version: questions, settings and theme. What is live does not change until you publish.',
      confirmText: `Restore version ${v.version}`,
    });
    if (!ok) return;
    this.busy = true;
    this.error = '';
    try {
      if (!(await this.store.flush())) throw new Error(`Your last changes are not saved: ${this.store.error}`);
      const form = await restoreVersion(this.store.api, this.store.formId, v.id, this.store.etag);
      this.store.replace(form, null);
      await this.store.reload();
      this.done = `Version ${v.version} is now the draft. Publish to make it live.`;
    } catch (e) {
      this.error = (e as Error).message;
    } finally {
      this.busy = false;
    }
  }

  private renderOpen(v: Version) {
    const snap = v.snapshot as unknown as Snapshot;
    const diff = computeChangelog(snap, { ...this.form, ...this.themeOnly } as unknown as Snapshot);
    const qs = [...(snap.questions ?? [])].sort((a, b) => a.order - b.order);
    return html`<div class="grid2" style="margin-top:0.75rem">
      <section aria-labelledby="v-q-${v.id}"><h3 id="v-q-${v.id}">Version ${v.version}: “${snap.title}”</h3>
        <ol>${qs.map((q) => html`<li>${q.title} <span class="muted">(${kindOf(q.type).label}${q.required ? ', required' : ''})</span></li>`)}</ol>
        ${qs.length ? nothing : html`<p class="muted">No questions.</p>`}
      </section>
      <section aria-labelledby="v-d-${v.id}"><h3 id="v-d-${v.id}">The draft compared with it</h3>
        ${diff.length ? html`<ul>${diff.map((c) => html`<li>${c.description}</li>`)}</ul>` : html`<p class="muted">The draft is the same as this version.</p>`}
      </section>
    </div>`;
  }

  override render() {
    return html`<div class="sections" style="max-width:56rem">
      <section class="card" aria-labelledby="v-h">
        <h2 id="v-h">Versions</h2>
        <p role="status" aria-live="polite" style="margin:0">${this.done}</p>
        ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
        ${this.versions === null ? html`<p class="muted" role="status">Loading…</p>`
          : this.versions.length === 0 ? html`<p class="muted">No version yet: each publish makes one.</p>`
          : html`<ol class="stack" style="list-style:none;margin:0;padding:0" aria-label="Published versions">${this.versions.map((v) => html`<li class="card">
              <div class="row" style="justify-content:space-between">
                <div><h3>Version ${v.version}${this.form.published_version_id === v.id ? html` <span class="muted">(live)</span>` : nothing}</h3>
                  <p class="muted" style="margin:0.25rem 0 0">${new Date(v.created_at).toLocaleString()}${v.published_by_name ? ` · ${v.published_by_name}` : ''}</p></div>
                <div class="row">
                  <button class="btn small" type="button" data-viewer-ok aria-expanded=${this.open === v.id ? 'true' : 'false'} @click=${() => (this.open = this.open === v.id ? null : v.id)}>${this.open === v.id ? 'Close' : 'View and compare'}<span class="sr-only"> version ${v.version}</span></button>
                  <button class="btn small" type="button" ?disabled=${this.busy} @click=${() => void this.restore(v)}>Restore<span class="sr-only"> version ${v.version}</span></button>
                </div>
              </div>
              <ul>${v.changelog.map((c) => html`<li>${c.description}</li>`)}</ul>
              ${this.open === v.id ? this.renderOpen(v) : nothing}
            </li>`)}</ol>`}
      </section>
      <fl-confirm></fl-confirm>
    </div>`;
  }
}
customElements.get('fl-versions-panel') || customElements.define('fl-versions-panel', FlVersionsPanel);
