import { LitElement, html, css, nothing } from 'lit';
import { styleMap } from 'lit/directives/style-map.js';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { canManage, deleteBranding, getBranding, updateBranding, type Branding, type TeamRole } from '../../data/teams';
import { errorLine } from '../auth/auth-card';
import { sectionStyles } from '../account/account-styles';
import { failure } from './team-events';

const EMPTY: Branding = { logo_url: null, primary_color: null, background_color: null, text_color: null, font_family: null, footer_text: null };
const COLORS = [
  ['primary_color', 'Primary colour', '#4f46e5'],
  ['background_color', 'Background colour', '#ffffff'],
  ['text_color', 'Text colour', '#18181b'],
] as const;
const HEX = /^#[0-9a-fA-F]{6}$/;

/**
 * `<fl-team-branding team-id role>`: the team's branding (logo, colours, font, footer) that its forms show,
 * with a preview that follows the fields as they are typed. Owners and admins edit; others see the preview.
 */
export class FlTeamBranding extends LitElement {
  static override styles = [
    tokens,
    controls,
    sectionStyles,
    css`
      .layout { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); align-items: start; }
      @media (max-width: 700px) { .layout { grid-template-columns: minmax(0, 1fr); } }
      div.field { display: grid; gap: 0.3rem; font-size: 0.875rem; font-weight: 600; }
      .color { display: grid; grid-template-columns: 2.5rem 1fr; gap: 0.5rem; align-items: center; }
      .color input[type='color'] { width: 2.5rem; }
      .idle { display: none; }
      .preview { margin: 0; border: 1px solid var(--_border); border-radius: var(--_radius); padding: 1rem; display: grid; gap: 0.6rem; min-height: 12rem; }
      .preview img { max-height: 2.5rem; max-width: 10rem; object-fit: contain; }
      .preview .q { font-weight: 600; }
      .preview .a { border-bottom: 2px solid currentColor; opacity: 0.7; padding: 0.3rem 0; }
      .preview .go { justify-self: start; border: 0; border-radius: 6px; padding: 0.45rem 0.9rem; font: inherit; }
      .preview footer { font-size: 0.8125rem; opacity: 0.85; }
    `,
  ];
  static override properties = { api: { attribute: false }, teamId: { attribute: 'team-id' }, yourRole: { attribute: 'your-role' }, saved: { state: true }, draft: { state: true }, error: { state: true }, msg: { state: true } };
  api!: Api;
  teamId = '';
  yourRole: TeamRole = 'viewer';
  saved: Branding | null = null;
  draft: Branding = { ...EMPTY };
  error: string | null = null;
  msg: string | null = null;

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('teamId') && this.teamId) void this.load();
  }

  private async load() {
    try {
      this.saved = await getBranding(this.api, this.teamId);
      this.draft = { ...this.saved };
    } catch (e) {
      this.error = failure(this, e);
    }
  }

  private set(key: keyof Branding, value: string) {
    this.draft = { ...this.draft, [key]: value.trim() === '' ? null : value };
  }

  private async onSave(e: Event) {
    e.preventDefault();
    this.error = this.msg = null;
    for (const [key, label] of COLORS) {
      const v = this.draft[key];
      if (v !== null && !HEX.test(v)) return void (this.error = `${label} must be a hex colour like #4f46e5.`);
    }
    try {
      this.saved = await updateBranding(this.api, this.teamId, this.draft);
      this.draft = { ...this.saved };
      this.msg = 'Branding saved.';
    } catch (err) {
      this.error = failure(this, err);
    }
  }

  private async onReset() {
    this.error = this.msg = null;
    try {
      await deleteBranding(this.api, this.teamId);
      this.saved = { ...EMPTY };
      this.draft = { ...EMPTY };
      this.msg = 'Branding removed: forms use their own themes.';
    } catch (err) {
      this.error = failure(this, err);
    }
  }

  private renderPreview(b: Branding) {
    const ok = (c: string | null) => (c && HEX.test(c) ? c : null);
    const primary = ok(b.primary_color) ?? '#4f46e5';
    const style = { background: ok(b.background_color) ?? '#ffffff', color: ok(b.text_color) ?? '#18181b', fontFamily: b.font_family ?? 'inherit' };
    return html`<figure class="preview" style=${styleMap(style)} aria-label="Preview of a team form">
      ${b.logo_url ? html`<img src=${b.logo_url} alt="Team logo" />` : nothing}
      <span class="q">1. How did you hear about us?</span>
      <span class="a">Type your answer here…</span>
      <button class="go" type="button" tabindex="-1" aria-hidden="true" style=${styleMap({ background: primary, color: '#ffffff' })}>OK</button>
      ${b.footer_text ? html`<footer>${b.footer_text}</footer>` : nothing}
    </figure>`;
  }

  override render() {
    const edit = canManage(this.yourRole);
    const d = this.draft;
    const text = (key: keyof Branding, label: string, type = 'text') =>
      html`<label class="field">${label}<input type=${type} .value=${d[key] ?? ''} @input=${(e: Event) => this.set(key, (e.target as HTMLInputElement).value)} autocomplete="off" /></label>`;
    return html`<section class="card" aria-labelledby="brand-h">
      <h2 id="brand-h">Branding</h2>
      <p class="meta">Team forms show this logo, these colours and this footer.</p>
      ${this.saved === null && !this.error
        ? html`<p class="muted" role="status">Loading…</p>`
        : html`<div class="layout">
            ${edit
              ? html`<form @submit=${this.onSave} novalidate>
                  ${text('logo_url', 'Logo address (https://…)', 'url')}
                  ${COLORS.map(
                    ([key, label, fallback]) => html`<div class="field"><span id="l-${key}">${label}</span>
                      <div class="color">
                        <input type="color" aria-label="Pick ${label.toLowerCase()}" .value=${d[key] && HEX.test(d[key]!) ? d[key]! : fallback} @input=${(e: Event) => this.set(key, (e.target as HTMLInputElement).value)} />
                        <input aria-labelledby="l-${key}" placeholder="none" .value=${d[key] ?? ''} @input=${(e: Event) => this.set(key, (e.target as HTMLInputElement).value)} autocomplete="off" />
                      </div></div>`,
                  )}
                  ${text('font_family', 'Font family')}
                  <label class="field">Footer text<textarea maxlength="1000" .value=${d.footer_text ?? ''} @input=${(e: Event) => this.set('footer_text', (e.target as HTMLTextAreaElement).value)}></textarea></label>
                  <div class="row">
                    <button class="btn primary" type="submit">Save branding</button>
                    <button class="btn" type="button" @click=${() => void this.onReset()}>Remove branding</button>
                  </div>
                </form>`
              : html`<p class="muted">Only the owner and admins change the branding.</p>`}
            ${this.renderPreview(d)}
          </div>`}
      ${errorLine(this.error)}
      <p class="ok-text ${this.msg ? '' : 'idle'}" role="status">${this.msg ?? ''}</p>
    </section>`;
  }
}
customElements.get('fl-team-branding') || customElements.define('fl-team-branding', FlTeamBranding);
