import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { copyForm, mayCreateIn, mayDelete, moveForm, roleOn, type TeamWithRole } from '../../data/form-role';
import type { FormListItem } from '../../data/forms';

/**
 * `<fl-move-form>`: "Move or copy…" for one form of the list (docs/workspace.md, "Teams"). The places offered
 * are the person's own forms and the teams where they may create forms; Move is offered only when their role
 * lets them take the form out of where it is (owner or admin of its team, owner of a personal form), as the
 * API checks (POST /forms/:id/move and /copy). Resolves with what was done, or null when cancelled.
 */
export class FlMoveForm extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      dialog { border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 1.5); padding: 1.25rem; width: min(30rem, calc(100vw - 2rem)); box-sizing: border-box; background: var(--_surface); color: var(--_text); }
      dialog::backdrop { background: rgb(0 0 0 / 0.45); }
      h2 { margin: 0 0 0.75rem; font-size: 1.125rem; overflow-wrap: anywhere; }
      .actions { display: flex; gap: 0.5rem; justify-content: flex-end; flex-wrap: wrap; margin-top: 1rem; }
      p { margin: 0.5rem 0 0; line-height: 1.45; }
    `,
  ];
  static override properties = { form: { state: true }, teams: { state: true }, target: { state: true }, error: { state: true }, busy: { state: true } };
  api!: Api;
  form: FormListItem | null = null;
  teams: TeamWithRole[] = [];
  /** '' for the person's own forms, else a team id. */
  target = '';
  error = '';
  busy = false;
  private resolve: ((done: { action: 'moved' | 'copied'; place: string } | null) => void) | null = null;

  private get places(): Array<{ id: string; name: string }> {
    return [{ id: '', name: 'My forms' }, ...this.teams.filter((t) => mayCreateIn(t.your_role)).map((t) => ({ id: t.id, name: t.name }))];
  }

  /** Opens the dialog for `form`; resolves when it closes. */
  async open(api: Api, form: FormListItem, teams: TeamWithRole[]) {
    Object.assign(this, { api, form, teams, error: '', busy: false });
    const here = form.team?.id ?? '';
    this.target = this.places.find((p) => p.id !== here)?.id ?? here;
    await this.updateComplete;
    this.renderRoot.querySelector('dialog')!.showModal();
    return new Promise<{ action: 'moved' | 'copied'; place: string } | null>((ok) => (this.resolve = ok));
  }

  private close(result: { action: 'moved' | 'copied'; place: string } | null) {
    this.renderRoot.querySelector('dialog')?.close();
    this.resolve?.(result);
    this.resolve = null;
  }

  private async run(action: 'move' | 'copy') {
    const f = this.form!;
    const teamId = this.target || null;
    this.busy = true;
    this.error = '';
    try {
      await (action === 'move' ? moveForm : copyForm)(this.api, f.id, teamId);
      this.close({ action: action === 'move' ? 'moved' : 'copied', place: this.places.find((p) => p.id === this.target)?.name ?? 'My forms' });
    } catch (e) {
      this.error = (e as Error).message;
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const f = this.form;
    const here = f?.team?.id ?? '';
    const canMove = !!f && mayDelete(roleOn({ team_id: here || null }, this.teams)) && this.target !== here;
    return html`<dialog aria-labelledby="mv-h" @cancel=${() => this.close(null)}>
      ${f
        ? html`<h2 id="mv-h">Move or copy “${f.title}”</h2>
            <label class="field">To
              <select @change=${(e: Event) => (this.target = (e.target as HTMLSelectElement).value)}>
                ${this.places.map((p) => html`<option value=${p.id} ?selected=${p.id === this.target}>${p.name}${p.id === here ? ' (where it is now)' : ''}</option>`)}
              </select></label>
            <p class="muted">Moving keeps the form's address, responses and versions. A copy is a new draft with the same questions.</p>
            ${this.error ? html`<p class="error-text" role="alert">${this.error}</p>` : nothing}
            <div class="actions">
              <button class="btn" type="button" @click=${() => this.close(null)}>Cancel</button>
              <button class="btn" type="button" ?disabled=${this.busy} @click=${() => void this.run('copy')}>Copy</button>
              ${canMove ? html`<button class="btn primary" type="button" ?disabled=${this.busy} @click=${() => void this.run('move')}>Move</button>` : nothing}
            </div>`
        : nothing}
    </dialog>`;
  }
}
customElements.get('fl-move-form') || customElements.define('fl-move-form', FlMoveForm);
