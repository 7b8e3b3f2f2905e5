import { html, nothing } from 'lit';
import type { FormStore } from './store';
import type { BuilderTab } from '../shell/routes';
import { mayEdit, mayPublish, type FormRole } from '../../data/form-role';

const TAB_LABELS: Record<BuilderTab, string> = { questions: 'Questions', settings: 'Settings', theme: 'Theme', publish: 'Publish', versions: 'Versions', share: 'Share', results: 'Results', signing: 'Signing', integrations: 'Integrations' };
export const tabLabel = (t: BuilderTab) => TAB_LABELS[t];

/** The autosave indicator: saved, saving, failed (with retry) or in conflict. */
export function saveStatus(s: FormStore) {
  const text = { saved: 'All changes saved', pending: 'Saving…', saving: 'Saving…', failed: 'Not saved', conflict: 'Not saved: changed elsewhere' }[s.state];
  return html`<span class="status ${s.state}" role="status" aria-live="polite"><span class="dot" aria-hidden="true"></span>${text}
    ${s.state === 'failed' ? html`<span class="sr-only">${s.error}</span><button class="btn small" type="button" title=${s.error} @click=${() => void s.save()}>Retry</button>` : nothing}
  </span>${s.state === 'failed' && s.error ? html`<span class="error-text" style="flex-basis:100%;font-size:0.875rem">${s.error}</span>` : nothing}`;
}

/**
 * The tabs a team viewer sees, each read-only: the questions, the settings, theme and versions (their controls
 * locked, ./read-only.ts), the link, the results, and the integrations and signing sessions, whose panels show
 * their records without controls to a viewer (docs/workspace.md). Only Publish is an editor's alone.
 */
const VIEWER_TABS: BuilderTab[] = ['questions', 'settings', 'theme', 'versions', 'share', 'results', 'integrations', 'signing'];
/** Tabs that show a viewer an editor's controls, locked, under a note saying so. */
export const LOCKED_TABS: BuilderTab[] = ['settings', 'theme', 'versions'];

/** Tabs whose edits undo and redo apply to from the keyboard (the others keep the browser's own keys). */
export const EDITING_TABS: BuilderTab[] = ['questions', 'settings', 'theme'];

export const PANELS: Record<Exclude<BuilderTab, 'questions'>, [string, () => Promise<unknown>]> = {
  settings: ['fl-settings-panel', () => import('./settings-panel')],
  theme: ['fl-theme-panel', () => import('../theme/theme-panel')],
  publish: ['fl-publish-panel', () => import('../publish/publish-panel')],
  versions: ['fl-versions-panel', () => import('../versions/versions-panel')],
  share: ['fl-share-panel', () => import('../share/share-panel')],
  results: ['formloom-results', () => import('../results/results')],
  integrations: ['fl-integrations-panel', () => import('../integrations/integrations-panel')],
  signing: ['fl-signing-panel', () => import('../signing/signing-panel')],
};

/** Whether the caller's role may use a tab: a viewer reads, an editor does all but publish. */
export function roleAllowsTab(role: FormRole | null | undefined, tab: BuilderTab): boolean {
  if (!mayEdit(role)) return VIEWER_TABS.includes(tab);
  return tab !== 'publish' || mayPublish(role);
}
