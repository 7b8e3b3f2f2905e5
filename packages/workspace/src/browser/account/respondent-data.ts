import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { request } from '../../data/auth';
import { errorLine, messageOf } from '../auth/auth-card';
import { sectionStyles, when } from './account-styles';
import type { FlConfirm } from '../controls/confirm-dialog';
import '../controls/confirm-dialog';

interface Found {
  responses: Array<{ form_id: string; form_title: string; response: { id: string; submitted_at: string; answers: unknown[] } }>;
  total: number;
}

interface Erased {
  erased: number;
  forms: number;
  files: number;
  kept: Array<{ form_id: string; response_id: string }>;
}

/**
 * `<fl-respondent-data>` (docs/privacy.md): when someone who answered asks for their data or its erasure, find
 * their responses by the email they gave or their visitor id, download them, and erase them. `scope="admin"`
 * searches every form of the server (the admin area); otherwise the forms the signed-in person may read.
 */
export class FlRespondentData extends LitElement {
  static override styles = [tokens, controls, sectionStyles, css`.grid2 { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); }`];
  static override properties = { api: { attribute: false }, scope: {}, found: { state: true }, query: { state: true }, error: { state: true }, said: { state: true }, busy: { state: true } };
  api!: Api;
  scope: 'owner' | 'admin' = 'owner';
  found: Found | null = null;
  query: { email?: string; visitor_id?: string } = {};
  error: string | null = null;
  said: string | null = null;
  busy = false;

  private get base() {
    return this.scope === 'admin' ? '/admin/respondents' : '/respondents';
  }

  private async onFind(e: Event) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const email = String(data.get('email') ?? '').trim();
    const visitor = String(data.get('visitor_id') ?? '').trim();
    this.error = this.said = null;
    this.found = null;
    if (!email && !visitor) return void (this.error = 'Enter the email address they gave, or their visitor id.');
    this.query = { ...(email ? { email } : {}), ...(visitor ? { visitor_id: visitor } : {}) };
    this.busy = true;
    try {
      this.found = await request<Found>(this.api, 'GET', `${this.base}/responses?${new URLSearchParams(this.query)}`);
    } catch (err) {
      this.error = messageOf(err);
    } finally {
      this.busy = false;
    }
  }

  /** Their responses as the JSON the server answered: what to hand to them. */
  private download() {
    const blob = new Blob([JSON.stringify(this.found, null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `respondent-data-${new Date().toISOString().slice(0, 10)}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
  }

  private async erase() {
    const n = this.found?.total ?? 0;
    const ok = await this.renderRoot.querySelector<FlConfirm>('fl-confirm')!.ask({
      heading: `Erase ${n === 1 ? 'this response' : `these ${n} responses`}?`,
      body: 'Their answers, uploaded files and webhook deliveries are deleted, and your results are recounted. Responses with a signed contract are kept. This cannot be undone.',
      confirmText: 'Erase',
      danger: true,
    });
    if (!ok) return;
    this.busy = true;
    this.error = null;
    try {
      const r = await request<Erased>(this.api, 'POST', `${this.base}/erase`, this.query);
      this.found = null;
      this.said = `Erased ${r.erased === 1 ? 'one response' : `${r.erased} responses`} in ${r.forms === 1 ? 'one form' : `${r.forms} forms`}${r.files ? `, with ${r.files === 1 ? 'one file' : `${r.files} files`}` : ''}.${r.kept.length ? ` ${r.kept.length === 1 ? 'One response holds' : `${r.kept.length} responses hold`} a signed contract and ${r.kept.length === 1 ? 'was' : 'were'} kept.` : ''}`;
    } catch (err) {
      this.error = messageOf(err);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const f = this.found;
    return html`<section class="card" aria-labelledby="rd-title">
      <h2 id="rd-title">A respondent's data</h2>
      <p>When someone who answered ${this.scope === 'admin' ? 'any form on this server' : 'your forms'} asks for their data or for it to be deleted, find their responses here.</p>
      <form @submit=${this.onFind}>
        <div class="grid2">
          <label class="field">Email address they gave<input name="email" type="email" autocomplete="off" /></label>
          <label class="field">Or their visitor id<input name="visitor_id" autocomplete="off" /></label>
        </div>
        <div class="row"><button class="btn primary" type="submit" ?disabled=${this.busy}>Find their responses</button></div>
      </form>
      ${errorLine(this.error)}
      ${this.said ? html`<p class="ok-text" role="status">${this.said}</p>` : nothing}
      ${f
        ? f.total === 0
          ? html`<p role="status">No responses found.</p>`
          : html`<p role="status">${f.total === 1 ? 'One response' : `${f.total} responses`} found.</p>
              <ul class="rows">${f.responses.map((r) => html`<li><span class="what"><strong>${r.form_title}</strong><span class="meta">Submitted ${when(r.response.submitted_at)} · ${r.response.answers.length === 1 ? "one answer" : `${r.response.answers.length} answers`}</span></span></li>`)}</ul>
              <div class="row">
                <button class="btn" type="button" @click=${() => this.download()}>Download as JSON</button>
                <button class="btn danger" type="button" ?disabled=${this.busy} @click=${() => void this.erase()}>Erase ${f.total === 1 ? 'it' : `all ${f.total}`}</button>
              </div>`
        : nothing}
      <fl-confirm></fl-confirm>
    </section>`;
  }
}
customElements.get('fl-respondent-data') || customElements.define('fl-respondent-data', FlRespondentData);
