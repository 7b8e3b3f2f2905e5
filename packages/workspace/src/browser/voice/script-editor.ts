import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { ScriptItem, Voice } from '../../data/voice';

/**
 * `<fl-script-editor>`: a script as speaker lines and pauses, and its cast, one voice per speaker
 * (docs/voice.md, "Scripts"). Lines without a speaker, and speakers left to "the main voice", use the
 * studio's voice. Every edit fires `fl-script-change` with `{lines, cast}`.
 */
export class FlScriptEditor extends LitElement {
  static override styles = [
    tokens,
    controls,
    css`
      :host { display: grid; gap: 0.75rem; }
      ol { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.6rem; }
      li { display: grid; grid-template-columns: 9rem 1fr auto; gap: 0.5rem; align-items: end; }
      li.pause { grid-template-columns: 9rem auto; justify-content: start; }
      @media (max-width: 560px) { li { grid-template-columns: 1fr auto; } li .speaker { grid-column: 1 / -1; } li.pause { grid-template-columns: 1fr auto; } }
      label.field, select, fieldset { min-width: 0; }
      select { max-width: 100%; }
      fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; margin: 0; display: grid; gap: 0.6rem; }
      legend { font-weight: 600; font-size: 0.875rem; padding: 0 0.25rem; }
      .cast { display: grid; gap: 0.6rem; grid-template-columns: repeat(auto-fit, minmax(14rem, 1fr)); }
    `,
  ];
  static override properties = { lines: { attribute: false }, cast: { attribute: false }, voices: { attribute: false } };
  lines: ScriptItem[] = [];
  cast: Record<string, string> = {};
  voices: Voice[] = [];

  private emit(lines: ScriptItem[], cast = this.cast) {
    this.lines = lines;
    this.cast = cast;
    this.dispatchEvent(new CustomEvent('fl-script-change', { detail: { lines, cast }, bubbles: true, composed: true }));
  }

  private setAt(i: number, item: ScriptItem) {
    this.emit(this.lines.map((l, j) => (j === i ? item : l)));
  }

  private async add(item: ScriptItem) {
    this.emit([...this.lines, item]);
    await this.updateComplete;
    // The new row's first field takes the focus, so typing goes on without reaching for the mouse.
    this.renderRoot.querySelector<HTMLElement>('ol > li:last-child :is(input)')?.focus();
  }

  /** The speakers named in the lines, once each, in order of appearance. */
  speakers(): string[] {
    const seen = new Map<string, string>();
    for (const l of this.lines) if (l.kind === 'line' && l.speaker.trim()) seen.set(l.speaker.trim().toLowerCase(), l.speaker.trim());
    return [...seen.values()];
  }

  override render() {
    const speakers = this.speakers();
    return html`<ol aria-label="Script">
        ${this.lines.map((l, i) =>
          l.kind === 'pause'
            ? html`<li class="pause">
                <label class="field">Pause ${i + 1}, seconds<input type="number" min="0" max="60" step="0.1" .value=${String(l.ms / 1000)}
                  @input=${(e: Event) => this.setAt(i, { kind: 'pause', ms: Math.round(Math.min(60, Math.max(0, Number((e.target as HTMLInputElement).value) || 0)) * 1000) })} /></label>
                <button class="btn small danger" type="button" aria-label=${`Remove pause ${i + 1}`} @click=${() => this.emit(this.lines.filter((_, j) => j !== i))}>Remove</button>
              </li>`
            : html`<li>
                <label class="field speaker">Speaker ${i + 1}<input .value=${l.speaker} maxlength="100" autocomplete="off" placeholder="Narrator"
                  @input=${(e: Event) => this.setAt(i, { ...l, speaker: (e.target as HTMLInputElement).value })} /></label>
                <label class="field">Line ${i + 1}<input .value=${l.text} maxlength="5000" autocomplete="off"
                  @input=${(e: Event) => this.setAt(i, { ...l, text: (e.target as HTMLInputElement).value })} /></label>
                <button class="btn small danger" type="button" aria-label=${`Remove line ${i + 1}`} @click=${() => this.emit(this.lines.filter((_, j) => j !== i))}>Remove</button>
              </li>`,
        )}
      </ol>
      <div class="row">
        <button class="btn" type="button" @click=${() => void this.add({ kind: 'line', speaker: '', text: '' })}>Add line</button>
        <button class="btn" type="button" @click=${() => void this.add({ kind: 'pause', ms: 1000 })}>Add pause</button>
      </div>
      ${speakers.length
        ? html`<fieldset>
            <legend>Cast</legend>
            <div class="cast">
              ${speakers.map(
                (s) => html`<label class="field">Voice for ${s}
                  <select @change=${(e: Event) => this.emit(this.lines, { ...this.cast, [s]: (e.target as HTMLSelectElement).value })}>
                    <option value="" ?selected=${!this.cast[s]}>The main voice</option>
                    ${this.voices.map((v) => html`<option value=${v.id} ?selected=${this.cast[s] === v.id}>${v.name}</option>`)}
                  </select>
                </label>`,
              )}
            </div>
          </fieldset>`
        : nothing}`;
  }
}
customElements.get('fl-script-editor') || customElements.define('fl-script-editor', FlScriptEditor);
