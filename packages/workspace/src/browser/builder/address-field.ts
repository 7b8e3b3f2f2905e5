import { LitElement, css, html, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import { ApiError } from '../../data/client';
import { changeSlug, slugProblem, suggestSlug } from '../../data/form-slug';
import type { FormStore } from './store';
import { mayPublish, roleOn, teamsWithRoles, type FormRole } from '../../data/form-role';

/**
 * `<fl-form-address>`: the form's address in the Settings tab (docs/workspace.md, "The form's address").
 * Saved with its own button, not by autosave nor undo: it changes the live link at once, and the old
 * address then answers "not found" (docs/decisions.md), which a published form's owner is told first.
 */
export class FlFormAddress extends LitElement {
  static override styles = [
    tokens,
    controls,
    // The label looks like every other field's (label.field), which cannot wrap this prefix-and-input field.
    css`
      :host { display: block; }
      label[for='slug'] { display: block; margin-bottom: 0.3rem; font-size: 0.875rem; font-weight: 600; color: var(--_text); }
      .address { display: flex; align-items: stretch; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); min-width: 0; }
      .address:focus-within { outline: 2px solid var(--_primary); outline-offset: 1px; }
      .prefix { padding: 0.5rem 0 0.5rem 0.6rem; color: var(--_muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 45%; align-self: center; }
      /* The wrapper draws the border and the focus ring, so the prefix reads as part of the field. */
      .address #slug { border: 0; outline: none; flex: 1 1 8rem; min-width: 0; padding-left: 0.1rem; background: transparent; }
      .row { display: flex; gap: 0.5rem; flex-wrap: wrap; align-items: center; margin-top: 0.5rem; }
      p { margin: 0.4rem 0 0; }
    `,
  ];
  static override properties = { store: { attribute: false }, tick: { attribute: false }, origin: {}, value: { state: true }, teamRole: { state: true }, busy: { state: true }, error: { state: true }, done: { state: true } };
  store!: FormStore;
  /** The builder's edit counter: a change of the form re-renders the field. */
  tick = 0;
  /** Where the public pages are served, e.g. `https://forms.example.com`. */
  origin = '';
  value: string | null = null;
  /** The caller's role on a team form (null for a personal form, or until known). */
  teamRole: FormRole | null = null;
  busy = false;
  error = '';
  done = '';

  override connectedCallback() {
    super.connectedCallback();
    // A live team form's address takes the publish permission (docs/decisions.md): an editor reads it only.
    const teamId = (this.store.draft as { team_id?: string | null }).team_id;
    if (teamId) void teamsWithRoles(this.store.api).then((teams) => (this.teamRole = roleOn({ team_id: teamId }, teams) ?? 'viewer'), () => undefined);
  }

  /** Whether the server would take a new address from this person now. */
  private get mayChange() {
    const f = this.store.draft as { team_id?: string | null; published: boolean };
    return !f.team_id || (this.teamRole !== null && (mayPublish(this.teamRole) || (!f.published && this.teamRole === 'editor')));
  }

  private get current() {
    return this.store.draft.slug;
  }

  private async save(e: Event) {
    e.preventDefault();
    const slug = this.value ?? this.current;
    this.done = '';
    this.error = slugProblem(slug);
    if (this.error || slug === this.current) return;
    this.busy = true;
    try {
      // Edits still being saved go first, so the ETag taken from the answer is the form's latest.
      await this.store.flush();
      const { form, etag } = await changeSlug(this.store.api, this.store.formId, slug);
      this.store.replace({ ...this.store.draft, slug: form.slug, updated_at: form.updated_at }, etag);
      this.value = null;
      this.done = `Saved. The form's address is now ${this.origin}/f/${form.slug}`;
    } catch (err) {
      const x = err as ApiError;
      this.error = x instanceof ApiError && x.reason === 'slug_taken' ? 'Another form already has this address: choose another.' : x.message;
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const f = this.store.draft;
    if (!this.mayChange) {
      return html`<p><span class="muted">Address:</span> <strong>${this.origin}/f/${f.slug}</strong></p>
        <p class="muted hint">${this.teamRole === null ? 'Checking what you may change…' : 'Only the team’s owners and admins change the address of a published form.'}</p>`;
    }
    const value = this.value ?? this.current;
    const live = this.problemWhileTyping(value);
    const error = this.error || live;
    return html`<form @submit=${(e: Event) => void this.save(e)} novalidate>
      <label for="slug">Address</label>
      <div class="address"><span class="prefix" aria-hidden="true">${this.origin}/f/</span>
        <input id="slug" name="slug" type="text" autocomplete="off" autocapitalize="none" spellcheck="false" maxlength="64" .value=${value}
          aria-describedby="slug-hint${error ? ' slug-error' : ''}" aria-invalid=${error ? 'true' : 'false'}
          @input=${(e: Event) => { this.value = (e.target as HTMLInputElement).value; this.error = ''; this.done = ''; }} /></div>
      <p id="slug-hint" class="muted hint">Lower-case letters, digits and hyphens, 3 to 64 characters.
        ${f.published ? html`<strong>The form is live:</strong> once saved, links to the old address stop working (they answer “not found”).` : 'Nobody can open it before it is published.'}</p>
      ${error ? html`<p id="slug-error" class="error-text" role="alert">${error}</p>` : nothing}
      <div class="row">
        <button class="btn" type="submit" ?disabled=${this.busy || value === this.current}>Save address</button>
        <button class="btn small" type="button" ?disabled=${this.busy} @click=${() => { this.value = suggestSlug(f.title); this.error = ''; }}>Use the title</button>
      </div>
      <p role="status" aria-live="polite" class="muted">${this.done}</p>
    </form>`;
  }

  /** Only a value that can never become valid by typing on is flagged while typing (not "too short"). */
  private problemWhileTyping(v: string) {
    if (v === this.current || v.length < 3) return '';
    return slugProblem(v);
  }
}
customElements.get('fl-form-address') || customElements.define('fl-form-address', FlFormAddress);
