import { LitElement, html, css, nothing } from 'lit';
import { tokens, controls } from '../controls/styles';
import type { Api } from '../../data/client';
import { deleteGeneration, estimateRetake, retake, type Generation } from '../../data/voice';
import type { FlConfirm } from '../controls/confirm-dialog';
import '../controls/confirm-dialog';
import { errorLine } from '../auth/auth-card';
import { clipName } from './generation-view';
import { gone, plural, voiceMessage, voiceStyles } from './voice-styles';

/**
 * `<fl-clip-actions>`: Retake and (in the library) Delete for one clip. A retake is quoted first
 * (`mode: estimate` with `retake_of`) and confirmed with its price, free or not (docs/voice.md, "Retakes").
 * Events: `fl-clip-replaced` (detail: the clip after a free retake, or the new charged one), `fl-clip-removed`
 * (detail: the id, deleted here or gone elsewhere), `fl-voice-balance` (detail: the balance afterwards).
 */
export class FlClipActions extends LitElement {
  static override styles = [tokens, controls, voiceStyles, css`:host { display: grid; gap: 0.4rem; }`];
  static override properties = { api: { attribute: false }, generation: { attribute: false }, deletable: { type: Boolean }, busy: { state: true }, error: { state: true }, done: { state: true } };
  api!: Api;
  generation!: Generation;
  deletable = false;
  busy = false;
  error: string | null = null;
  done: string | null = null;

  private fire(name: string, detail: unknown) {
    this.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
  }

  private ask(o: Parameters<FlConfirm['ask']>[0]): Promise<boolean> {
    return (this.renderRoot.querySelector('fl-confirm') as FlConfirm).ask(o);
  }

  private async act(work: () => Promise<void>) {
    // The buttons are disabled while busy, which drops the focus: it goes back to the one pressed afterwards.
    const opener = (this.renderRoot as ShadowRoot).activeElement as HTMLElement | null;
    this.busy = true;
    this.error = null;
    this.done = null;
    try {
      await work();
    } catch (e) {
      this.error = voiceMessage(e);
      if (gone(e)) this.fire('fl-clip-removed', { id: this.generation.id, gone: true, message: this.error });
    } finally {
      this.busy = false;
      await this.updateComplete;
      if (opener?.isConnected) opener.focus();
    }
  }

  private onRetake() {
    const g = this.generation;
    return this.act(async () => {
      const q = (await estimateRetake(this.api, g.id)).data;
      if (!q.enough) throw new Error(`A retake costs ${plural(q.credits, 'credit')}; the balance is ${plural(q.balance, 'credit')}.`);
      const ok = await this.ask({
        heading: `Retake “${clipName(g)}”?`,
        body: q.free ? `Free: the same words and voice made again, the clip keeps its place (${plural(g.retakes_remaining, 'free retake')} left).` : `This retake is a new clip and costs ${plural(q.credits, 'credit')}. Balance: ${plural(q.balance, 'credit')}.`,
        confirmText: q.free ? 'Retake for free' : `Retake for ${plural(q.credits, 'credit')}`,
      });
      if (!ok) return;
      const made = (await retake(this.api, g.id)).data;
      this.fire('fl-voice-balance', made.credits.remaining);
      this.fire('fl-clip-replaced', { before: g.id, generation: made });
      this.done = q.free ? 'Retake ready.' : 'Retake ready: a new clip.';
    });
  }

  private onDelete() {
    const g = this.generation;
    return this.act(async () => {
      const ok = await this.ask({ heading: `Delete “${clipName(g)}”?`, body: 'The clip and its audio in every format are deleted. Credits are not given back.', confirmText: 'Delete clip', danger: true });
      if (!ok) return;
      await deleteGeneration(this.api, g.id);
      this.fire('fl-clip-removed', { id: g.id, gone: false });
    });
  }

  override render() {
    const g = this.generation;
    const name = clipName(g);
    const canRetake = g.status === 'ready' || g.status === 'partial' || g.status === 'failed';
    return html`<div class="row">
        ${canRetake ? html`<button class="btn small" type="button" ?disabled=${this.busy} aria-label=${`Retake ${name}`} @click=${() => void this.onRetake()}>Retake</button>` : nothing}
        ${this.deletable ? html`<button class="btn small danger" type="button" ?disabled=${this.busy || g.status === 'rendering'} aria-label=${`Delete ${name}`} @click=${() => void this.onDelete()}>Delete</button>` : nothing}
        <slot></slot>
      </div>
      ${this.done ? html`<p class="ok-text" role="status">${this.done}</p>` : nothing}
      ${errorLine(this.error)}
      <fl-confirm></fl-confirm>`;
  }
}
customElements.get('fl-clip-actions') || customElements.define('fl-clip-actions', FlClipActions);
