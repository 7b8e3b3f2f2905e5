import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { readSession } from '../../data/session';
import { MAKE_FORMATS, estimate, generate, listVoices, type Estimate, type Generation, type ScriptItem, type Voice, type VoiceRequest } from '../../data/voice';
import { errorLine } from '../auth/auth-card';
import { generationView } from './generation-view';
import { notEnabled, plural, voiceMessage, voiceStyles } from './voice-styles';
import './clip-actions';
import './script-editor';

const GENDERS = [['', 'Any'], ['female', 'Female'], ['male', 'Male']] as const;
const ESTIMATE_DELAY_MS = 350;

/**
 * `<fl-voice-studio>` at `/voice` (docs/workspace.md, "Voice"): words in one voice or a script in several,
 * the voice picked by language and gender with a short preview, the exact cost quoted by the API before
 * anything is made (`mode: estimate`), then the clip to play, download and retake.
 */
export class FlVoiceStudio extends LitElement {
  static override styles = [
    tokens,
    controls,
    voiceStyles,
    css`
      .modes { display: flex; gap: 1rem; border: 0; padding: 0; margin: 0; flex-wrap: wrap; }
      .modes legend { font-weight: 600; font-size: 0.875rem; margin-bottom: 0.35rem; }
      .picker { display: grid; gap: 0.75rem; grid-template-columns: 1fr 1fr 2fr; align-items: end; }
      @media (max-width: 640px) { .picker { grid-template-columns: 1fr 1fr; } .picker .voice { grid-column: 1 / -1; } }
      .options { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); align-items: end; }
      .preview { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
    `,
  ];
  static override properties = {
    api: { attribute: false },
    base: {},
    languages: { state: true },
    voices: { state: true },
    language: { state: true },
    gender: { state: true },
    req: { state: true },
    quote: { state: true },
    quoteError: { state: true },
    previewing: { state: true },
    result: { state: true },
    busy: { state: true },
    error: { state: true },
    disabled: { state: true },
    loadError: { state: true },
  };
  api!: Api;
  base = '';
  languages: string[] = [];
  voices: Voice[] = [];
  language = 'English';
  gender = '';
  req: VoiceRequest = { mode: 'speak', voice: '', text: '', lines: [{ kind: 'line', speaker: '', text: '' }], cast: {}, format: 'mp3', quality: 'standard', speed: 1, title: '', save: false };
  quote: Estimate | null = null;
  quoteError: string | null = null;
  previewing: string | null = null;
  result: Generation | null = null;
  busy = false;
  error: string | null = null;
  /** The API's reason this account may not make audio; the studio then offers no Generate. */
  disabled: string | null = null;
  loadError: string | null = null;
  private quoteSeq = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.loadVoices(true);
    // Voice needs a confirmed address (docs/voice.md, "The voice API"): say so before anything is typed.
    void readSession(this.api).then(
      (s) => void (s?.user.email_verified === false && (this.disabled = 'Voice needs a confirmed email address: use the link mailed to you, or ask for a new one on your account page.')),
      () => undefined,
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  private async loadVoices(first = false) {
    try {
      if (first) {
        const all = (await listVoices(this.api)).data;
        this.languages = [...new Set(all.map((v) => v.language))].sort((a, b) => a.localeCompare(b));
        if (!this.languages.includes(this.language)) this.language = this.languages[0] ?? '';
      }
      // The API filters (and keeps its order: the voice people understand best first).
      this.voices = (await listVoices(this.api, { language: this.language, gender: this.gender })).data;
      if (!this.voices.some((v) => v.id === this.req.voice)) this.set({ voice: this.voices[0]?.id ?? '' });
      this.loadError = null;
    } catch (e) {
      this.loadError = voiceMessage(e);
      if (notEnabled(e)) this.disabled = voiceMessage(e);
    }
  }

  /** Changes the request and asks for its price again, once typing pauses. */
  private set(patch: Partial<VoiceRequest>) {
    this.req = { ...this.req, ...patch };
    this.quote = null;
    this.quoteError = null;
    // A price asked for before this change no longer applies: its answer, when it comes, is dropped.
    this.quoteSeq++;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.requote(), ESTIMATE_DELAY_MS);
  }

  private sendable(): VoiceRequest {
    // The request's `voice` speaks only untagged lines (docs/voice.md, "Scripts"): a speaker left on "the main
    // voice" is cast to it explicitly, and names no longer in the script are dropped.
    const speakers = new Set((this.req.lines ?? []).flatMap((l) => (l.kind === 'line' && l.speaker.trim() ? [l.speaker.trim()] : [])));
    const cast = Object.fromEntries([...speakers].map((s) => [s, this.req.cast?.[s] || this.req.voice]));
    const title = this.req.title?.trim() || (this.req.mode === 'speak' ? this.req.text : (this.req.lines ?? []).map((l) => (l.kind === 'line' ? l.text : '')).join(' '))?.trim().replace(/\s+/g, ' ').slice(0, 60);
    return { ...this.req, cast, title };
  }

  private hasWords(): boolean {
    return this.req.mode === 'speak' ? !!this.req.text?.trim() : (this.req.lines ?? []).some((l) => l.kind === 'line' && l.text.trim());
  }

  private async requote() {
    if (!this.req.voice || !this.hasWords()) return;
    const seq = ++this.quoteSeq;
    try {
      const q = (await estimate(this.api, this.sendable())).data;
      if (seq !== this.quoteSeq) return;
      this.quote = q;
      this.balanceChanged(q.balance); // spent in another tab meanwhile: the header follows the API

    } catch (e) {
      if (seq === this.quoteSeq) this.quoteError = voiceMessage(e);
    }
  }

  private async onGenerate(e: Event) {
    e.preventDefault();
    if (!this.quote || !this.quote.enough || this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      this.result = (await generate(this.api, this.sendable())).data;
      this.balanceChanged(this.result.credits.remaining);
      this.set({}); // the same words again are free now (reuse): quote again
      await this.updateComplete;
      this.renderRoot.querySelector<HTMLElement>('#result h2')?.focus();
    } catch (err) {
      this.error = voiceMessage(err);
      if (notEnabled(err)) this.disabled = this.error;
    } finally {
      this.busy = false;
    }
  }

  private balanceChanged(balance: number) {
    this.dispatchEvent(new CustomEvent('fl-voice-balance', { detail: balance, bubbles: true, composed: true }));
  }

  private preview() {
    const v = this.voices.find((x) => x.id === this.req.voice);
    this.previewing = v?.preview_url ?? null;
    void this.updateComplete.then(() => void this.renderRoot.querySelector<HTMLAudioElement>('#preview')?.play().catch(() => undefined));
  }

  private renderCost() {
    if (!this.hasWords()) return html`<p class="meta">Type the words to hear: the price shows here before anything is made.</p>`;
    if (this.quoteError) return html`<p class="cost short" role="alert">${this.quoteError}</p>`;
    const q = this.quote;
    if (!q) return html`<p class="cost" role="status">Working out the price…</p>`;
    const what = `${plural(q.characters, 'spoken character')}, about ${q.seconds_estimated.toFixed(1)} s`;
    if (q.free) return html`<p class="cost" role="status">Free: the same audio was made before and is reused (${what}).</p>`;
    return html`<p class="cost ${q.enough ? '' : 'short'}" role="status">
      Costs <strong>${plural(q.credits, 'credit')}</strong> (${what}). Balance: ${plural(q.balance, 'credit')}.${q.enough ? '' : ' Not enough credits: the balance does not cover it.'}
    </p>`;
  }

  override render() {
    const r = this.req;
    return html`<form class="stack" @submit=${this.onGenerate} novalidate>
      <section class="card" aria-labelledby="words-h">
        <h2 id="words-h">Words</h2>
        <fieldset class="modes">
          <legend>Kind</legend>
          <label class="check"><input type="radio" name="mode" value="speak" .checked=${r.mode === 'speak'} @change=${() => this.set({ mode: 'speak' })} />One voice</label>
          <label class="check"><input type="radio" name="mode" value="script" .checked=${r.mode === 'script'} @change=${() => this.set({ mode: 'script' })} />Script: several speakers and pauses</label>
        </fieldset>
        ${r.mode === 'speak'
          ? html`<label class="field">Text<textarea name="text" rows="5" maxlength="5000" .value=${r.text ?? ''} @input=${(e: Event) => this.set({ text: (e.target as HTMLTextAreaElement).value })}></textarea></label>
              <p class="meta">Up to 5,000 spoken characters. 0.4 credits a character, rounded up once.</p>`
          : html`<fl-script-editor .lines=${r.lines ?? []} .cast=${r.cast ?? {}} .voices=${this.voices}
              @fl-script-change=${(e: CustomEvent<{ lines: ScriptItem[]; cast: Record<string, string> }>) => this.set({ lines: e.detail.lines, cast: e.detail.cast })}></fl-script-editor>`}
      </section>
      <section class="card" aria-labelledby="voice-h">
        <h2 id="voice-h">Voice</h2>
        ${this.loadError ? html`<div role="alert"><p class="error-text on">${this.loadError}</p><button class="btn" type="button" @click=${() => void this.loadVoices(true)}>Retry</button></div>` : nothing}
        <div class="picker">
          <label class="field">Language<select @change=${(e: Event) => { this.language = (e.target as HTMLSelectElement).value; void this.loadVoices(); }}>
            ${this.languages.map((l) => html`<option ?selected=${l === this.language}>${l}</option>`)}
          </select></label>
          <label class="field">Gender<select @change=${(e: Event) => { this.gender = (e.target as HTMLSelectElement).value; void this.loadVoices(); }}>
            ${GENDERS.map(([v, t]) => html`<option value=${v} ?selected=${v === this.gender}>${t}</option>`)}
          </select></label>
          <label class="field voice">${r.mode === 'script' ? 'Main voice' : 'Voice'}<select @change=${(e: Event) => { this.previewing = null; this.set({ voice: (e.target as HTMLSelectElement).value }); }}>
            ${this.voices.length ? nothing : html`<option value="">No voice matches</option>`}
            ${this.voices.map((v) => html`<option value=${v.id} ?selected=${v.id === r.voice}>${v.name}</option>`)}
          </select></label>
        </div>
        <div class="preview">
          <button class="btn" type="button" ?disabled=${!r.voice} @click=${() => this.preview()}>Preview voice</button>
          ${this.previewing ? html`<audio id="preview" controls src=${this.previewing} aria-label="Voice preview"></audio>` : html`<span class="meta">A short sample sentence, free.</span>`}
        </div>
      </section>
      <section class="card" aria-labelledby="opts-h">
        <h2 id="opts-h">Output</h2>
        <div class="options">
          <label class="field">Title in the library<input name="title" maxlength="200" .value=${r.title ?? ''} placeholder="The first words" @input=${(e: Event) => (this.req = { ...this.req, title: (e.target as HTMLInputElement).value })} /></label>
          <label class="field">Format<select @change=${(e: Event) => this.set({ format: (e.target as HTMLSelectElement).value })}>
            ${MAKE_FORMATS.map(([f, t]) => html`<option value=${f} ?selected=${f === r.format}>${t}</option>`)}
          </select></label>
          <label class="field">Quality<select @change=${(e: Event) => this.set({ quality: (e.target as HTMLSelectElement).value })}>
            ${[['standard', 'Standard (24 kHz)'], ['studio', 'Studio (48 kHz)'], ['phone', 'Phone (8 kHz)']].map(([v, t]) => html`<option value=${v} ?selected=${v === r.quality}>${t}</option>`)}
          </select></label>
          <label class="field">Speed<input type="number" min="0.85" max="1.15" step="0.05" .value=${String(r.speed ?? 1)}
            @change=${(e: Event) => this.set({ speed: Math.min(1.15, Math.max(0.85, Number((e.target as HTMLInputElement).value) || 1)) })} /></label>
        </div>
        <label class="check"><input type="checkbox" .checked=${!!r.save} @change=${(e: Event) => (this.req = { ...this.req, save: (e.target as HTMLInputElement).checked })} />Keep the audio until I delete it (otherwise 30 days)</label>
      </section>
      <section class="card" aria-label="Cost and generate">
        ${this.renderCost()}
        ${this.disabled
          ? html`<p class="notice" role="alert">${this.disabled}</p>`
          : html`<div class="row"><button class="btn primary" type="submit" ?disabled=${this.busy || !this.quote?.enough}>${this.busy ? 'Generating…' : 'Generate'}</button></div>`}
        ${errorLine(this.disabled ? null : this.error)}
      </section>
      ${this.result
        ? html`<section class="card" id="result" aria-labelledby="result-h"><p class="meta" id="result-h">Made just now</p>${generationView(
            this.result,
            html`<fl-clip-actions .api=${this.api} .generation=${this.result}
              @fl-clip-replaced=${(e: CustomEvent<{ generation: Generation }>) => (this.result = e.detail.generation)}
              @fl-clip-removed=${(e: CustomEvent<{ gone: boolean; message?: string }>) => { this.result = null; if (e.detail.gone) this.error = e.detail.message ?? null; }}><a class="btn small" href="${this.base}/voice/library">Open the library</a></fl-clip-actions>`,
            'h2',
          )}</section>`
        : nothing}
    </form>`;
  }
}
customElements.get('fl-voice-studio') || customElements.define('fl-voice-studio', FlVoiceStudio);
