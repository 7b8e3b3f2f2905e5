import { html, nothing } from 'lit';
import type { FormStore } from './store';
import type { BuilderTab } from '../shell/routes';

const TAB_LABELS: Record<BuilderTab, string> = { questions: 'Questions', settings: 'Settings', theme: 'Theme', publish: 'Publish', versions: 'Versions', share: 'Share', results: 'Results', signing: 'Signing', integrations: 'Integrations' };
export const tabLabel = (t: BuilderTab) => TAB_LABELS[t];

/** The autosave indicator: saved, saving, failed (with retry) or in conflict. */
export function saveStatus(s: FormStore) {
  const text = { saved: 'All changes saved', pending: 'Saving…', saving: 'Saving…', failed: 'Not saved', conflict: 'Not saved: changed elsewhere' }[s.state];
  return html`<span class="status ${s.state}" role="status" aria-live="polite"><span class="dot" aria-hidden="true"></span>${text}
    ${s.state === 'failed' ? html`<span class="sr-only">${s.error}</span><button class="btn small" type="button" title=${s.error} @click=${() => void s.save()}>Retry</button>` : nothing}
  </span>${s.state === 'failed' && s.error ? html`<span class="error-text" style="flex-basis:100%;font-size:0.875rem">${s.error}</span>` : nothing}`;
}
