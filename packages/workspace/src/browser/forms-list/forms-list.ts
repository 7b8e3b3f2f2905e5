import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import '../controls/confirm-dialog';
import type { FlConfirm } from '../controls/confirm-dialog';
import type { Api } from '../../data/client';
import { ApiError } from '../../data/client';
import { createForm, deleteForm, duplicateForm, listForms, type FormInput, type FormListItem } from '../../data/forms';
import { formPath, navigate } from '../shell/routes';
import { BLANK_FORM, FORM_TEMPLATES } from './templates';
import { templateBody, type FormTemplate } from './template-kit';
import { THEME_PRESETS } from '../theme/presets';
import './template-preview';
import { declareLibraryFaces } from '../theme/font-library';
import type { FlTemplatePreview } from './template-preview';
import { listStyles } from './forms-list-styles';
import { mayCreateIn, mayDelete, mayEdit, roleOn, teamsWithRoles, type TeamWithRole } from '../../data/form-role';
import './move-dialog';
import type { FlMoveForm } from './move-dialog';

type Published = '' | 'true' | 'false';

/**
 * `<fl-forms-list>`: the owner's forms (docs/workspace.md, "Forms"): search, team and published filters,
 * new form (blank, or from the template gallery after a preview), duplicate, and delete with confirmation.
 */
export class FlFormsList extends LitElement {
  static override styles = [tokens, controls, listStyles];
  static override properties = {
    api: { attribute: false },
    base: {},
    pagesBase: { attribute: 'pages-base' },
    search: { state: true },
    teamId: { state: true },
    published: { state: true },
    forms: { state: true },
    total: { state: true },
    teams: { state: true },
    error: { state: true },
    busy: { state: true },
    creating: { state: true },
    createIn: { state: true },
  };
  api!: Api;
  base = '';
  pagesBase = '';
  search = '';
  teamId = '';
  published: Published = '';
  forms: FormListItem[] | null = null;
  total = 0;
  teams: TeamWithRole[] = [];
  /** Where "New form" creates: '' for the person's own forms, else a team they may create forms in. */
  createIn = '';
  error = '';
  busy = false;
  creating = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private seq = 0;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
    void teamsWithRoles(this.api).then((teams) => (this.teams = teams));
  }

  private async load() {
    const seq = ++this.seq;
    try {
      const r = await listForms(this.api, {
        per_page: 100,
        ...(this.search.trim() ? { search: this.search.trim() } : {}),
        ...(this.teamId ? { team_id: this.teamId } : {}),
        ...(this.published ? { published: this.published === 'true' } : {}),
      });
      if (seq !== this.seq) return;
      this.forms = r.forms;
      this.total = r.total;
      this.error = '';
    } catch (e) {
      if (seq === this.seq) this.error = (e as Error).message;
    }
  }

  private onSearch(e: InputEvent) {
    this.search = (e.target as HTMLInputElement).value;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.load(), 200);
  }

  private async create(body: FormInput & { title: string }) {
    this.busy = true;
    try {
      const form = await createForm(this.api, { ...body, ...(this.createIn ? { team_id: this.createIn } : {}) });
      navigate(formPath(this.base, form.id));
    } catch (e) {
      this.error = (e as Error).message;
    } finally {
      this.busy = false;
    }
  }

  /** Shows the template as respondents will see it; "Use this template" creates the form. */
  private async preview(t: FormTemplate) {
    const dialog = this.renderRoot.querySelector('fl-template-preview') as FlTemplatePreview;
    if (await dialog.show(t)) await this.create(templateBody(t));
  }

  private async duplicate(f: FormListItem) {
    try {
      await duplicateForm(this.api, f.id);
      await this.load();
      this.announce(`Duplicated "${f.title}".`);
    } catch (e) {
      this.error = (e as Error).message;
    }
  }

  private async moveOrCopy(f: FormListItem) {
    const done = await (this.renderRoot.querySelector('fl-move-form') as FlMoveForm).open(this.api, f, this.teams);
    if (!done) return;
    this.announce(`${done.action === 'moved' ? 'Moved' : 'Copied'} "${f.title}" to ${done.place}.`);
    await this.load();
  }

  private async deleteWithConfirm(f: FormListItem) {
    const confirm = this.renderRoot.querySelector('fl-confirm') as FlConfirm;
    const ok = await confirm.ask({ heading: `Delete "${f.title}"?`, body: `Its ${f.response_count} responses and its versions are deleted too. This cannot be undone.`, confirmText: 'Delete form', danger: true });
    if (!ok) return;
    try {
      await deleteForm(this.api, f.id);
    } catch (e) {
      const err = e as ApiError;
      if (err.status !== 409 || err.reason !== 'form_has_signed_contracts') {
        this.error = err.message;
        return;
      }
      // Signed contracts are kept unless deleting them is asked for in so many words (docs/decisions.md, Forms).
      const count = (err.details as { signed_contracts?: number } | undefined)?.signed_contracts;
      const again = await confirm.ask({
        heading: 'This form has signed contracts',
        body: html`<p>${count ? `${count} signed contract${count === 1 ? '' : 's'}` : 'Signed contracts'} belong to this form. Deleting it also deletes the signed PDFs and their audit trails, which the signers may rely on.</p><p>Keep the form if you need them.</p>`,
        confirmText: 'Delete form and signed contracts',
        danger: true,
      });
      if (!again) return;
      try {
        await deleteForm(this.api, f.id, true);
      } catch (e2) {
        this.error = (e2 as Error).message;
        return;
      }
    }
    this.announce(`Deleted "${f.title}".`);
    await this.load();
  }

  private announce(text: string) {
    const live = this.renderRoot.querySelector('#live');
    if (live) live.textContent = text;
  }

  /** Teams where the person may create forms: the choices of "New form"'s "Create in". */
  private get creatableTeams(): TeamWithRole[] {
    return this.teams.filter((t) => mayCreateIn(t.your_role));
  }

  private openNew() {
    this.creating = !this.creating;
    // The gallery's cards are written in their templates' fonts.
    if (this.creating) declareLibraryFaces(this.pagesBase);
    // The list's Team filter suggests where the new form goes, when the person may create forms there.
    if (this.creating) this.createIn = this.creatableTeams.some((t) => t.id === this.teamId) ? this.teamId : '';
  }

  /** A gallery card in the template's own colours and font; it opens the preview. */
  private templateCard(t: FormTemplate) {
    const look = THEME_PRESETS.find((p) => p.id === t.preset)?.theme;
    const style = look ? `--tpl-bg:${look.background_color};--tpl-text:${look.text_color};--tpl-title:${look.title_color};--tpl-accent:${look.button_color};font-family:${look.font_family}` : '';
    return html`<button class="card template themed" type="button" style=${style} @click=${() => void this.preview(t)} ?disabled=${this.busy}>
      <span class="tpl-cat">${t.category} · ${t.form.questions.length} questions</span>
      <strong>${t.name}</strong><span class="tpl-sum">${t.summary}</span>
    </button>`;
  }

  private renderForm(f: FormListItem) {
    const href = formPath(this.base, f.id);
    // Only the actions the person's role allows (a team viewer reads forms; only owners and admins delete).
    const role = roleOn({ team_id: f.team?.id ?? null }, this.teams);
    return html`<li class="card form">
      <span class="swatch" style="background:${f.theme_color ?? '#4f46e5'}" aria-hidden="true"></span>
      <div class="main">
        <h2><a href="${href}">${f.title}</a></h2>
        <p class="meta muted">
          <span class="badge ${f.published ? 'live' : ''}">${f.published ? 'Published' : 'Draft'}</span>
          ${f.response_count} response${f.response_count === 1 ? '' : 's'}${f.team ? html` · ${f.team.name}` : nothing} · edited ${new Date(f.updated_at).toLocaleDateString()}
        </p>
      </div>
      <div class="actions row">
        ${mayEdit(role) ? html`<button class="btn small" type="button" @click=${() => void this.duplicate(f)} aria-label="Duplicate ${f.title}">Duplicate</button>` : nothing}
        ${this.teams.length ? html`<button class="btn small" type="button" @click=${() => void this.moveOrCopy(f)} aria-label="Move or copy ${f.title}">Move or copy…</button>` : nothing}
        ${mayDelete(role) ? html`<button class="btn small danger" type="button" @click=${() => void this.deleteWithConfirm(f)} aria-label="Delete ${f.title}">Delete</button>` : nothing}
        ${role === 'viewer' ? html`<span class="muted small">View only</span>` : nothing}
      </div>
    </li>`;
  }

  override render() {
    const filtered = this.search || this.teamId || this.published;
    return html`<div class="page">
      <div class="head row">
        <h1>Forms</h1>
        <div class="new">
          <button class="btn primary" type="button" aria-expanded=${this.creating} aria-controls="templates" @click=${() => this.openNew()} ?disabled=${this.busy}>New form</button>
        </div>
      </div>
      ${this.creating
        ? html`${this.creatableTeams.length
              ? html`<label class="field create-in">Create in
                  <select @change=${(e: Event) => (this.createIn = (e.target as HTMLSelectElement).value)}>
                    <option value="" ?selected=${this.createIn === ''}>My forms</option>
                    ${this.creatableTeams.map((t) => html`<option value=${t.id} ?selected=${t.id === this.createIn}>${t.name}</option>`)}
                  </select></label>`
              : nothing}
            <section id="templates" class="gallery" aria-labelledby="tpl-h">
              <h2 id="tpl-h">Start from</h2>
              <div class="templates">
                <button class="card template blank" type="button" @click=${() => void this.create(BLANK_FORM)} ?disabled=${this.busy}><strong>Blank form</strong><span class="muted">Start from nothing.</span></button>
                ${FORM_TEMPLATES.map((t) => this.templateCard(t))}
              </div>
            </section>`
        : nothing}
      <div class="filters" role="search">
        <label class="field grow">Search<input type="search" .value=${this.search} @input=${this.onSearch} placeholder="Title" /></label>
        <label class="field">Team
          <select @change=${(e: Event) => { this.teamId = (e.target as HTMLSelectElement).value; void this.load(); }}>
            <option value="">All forms</option>
            ${this.teams.map((t) => html`<option value=${t.id} ?selected=${t.id === this.teamId}>${t.name}</option>`)}
          </select>
        </label>
        <label class="field">Status
          <select @change=${(e: Event) => { this.published = (e.target as HTMLSelectElement).value as Published; void this.load(); }}>
            <option value="">Any</option><option value="true">Published</option><option value="false">Not published</option>
          </select>
        </label>
      </div>
      ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
      ${this.forms === null
        ? html`<p class="muted" role="status">Loading forms…</p>`
        : this.forms.length === 0
          ? html`<div class="card empty"><h2>${filtered ? 'No form matches' : 'No forms yet'}</h2><p class="muted">${filtered ? 'Try another search or filter.' : 'Create your first form with “New form”.'}</p></div>`
          : html`<p class="muted count">${this.total} form${this.total === 1 ? '' : 's'}</p><ul class="list">${this.forms.map((f) => this.renderForm(f))}</ul>`}
      <p id="live" class="sr-only" role="status" aria-live="polite"></p>
      <fl-confirm></fl-confirm>
      <fl-move-form></fl-move-form>
      <fl-template-preview pages-base=${this.pagesBase} ?busy=${this.busy}></fl-template-preview>
    </div>`;
  }
}
customElements.get('fl-forms-list') || customElements.define('fl-forms-list', FlFormsList);
