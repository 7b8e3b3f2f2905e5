import { css } from 'lit';
import { ApiError } from '../../data/client';
import { messageOf } from '../auth/auth-card';

/** The voice screens' shared look: cards, a generation's player row, the cost line (docs/workspace.md, "Voice"). */
export const voiceStyles = css`
  :host { display: block; }
  /* A select is as wide as its longest voice name unless a grid lets it shrink: nothing may scroll sideways. */
  label.field { min-width: 0; }
  select { min-width: 0; max-width: 100%; text-overflow: ellipsis; }
  fieldset { min-width: 0; }
  label.check input[type='radio'] { width: 1.15rem; height: 1.15rem; min-height: 0; padding: 0; margin: 0; flex: none; accent-color: var(--_primary); }
  p { margin: 0; line-height: 1.5; }
  section.card { display: grid; gap: 0.85rem; }
  .meta { font-size: 0.8125rem; color: var(--_muted); }
  .gen { display: grid; gap: 0.5rem; padding: 0.75rem 0; border-top: 1px solid var(--_border); min-width: 0; }
  .gen:first-of-type { border-top: 0; }
  .gen h3 { overflow-wrap: anywhere; }
  audio { width: 100%; max-width: 32rem; height: 2.5rem; }
  .downloads { display: flex; flex-wrap: wrap; gap: 0.25rem 0.75rem; align-items: center; font-size: 0.875rem; margin: 0; padding: 0; list-style: none; }
  .downloads a { display: inline-flex; min-height: 2rem; align-items: center; }
  .badge { font-size: 0.75rem; padding: 0.1rem 0.45rem; border-radius: 999px; border: 1px solid var(--_border); color: var(--_muted); }
  .badge.failed { color: var(--_danger); border-color: currentColor; }
  .cost { padding: 0.6rem 0.75rem; border-radius: var(--_radius); background: color-mix(in srgb, var(--_primary) 10%, transparent); }
  .cost.short { background: color-mix(in srgb, var(--_danger) 12%, transparent); }
  .notice { padding: 0.75rem; border-radius: var(--_radius); background: color-mix(in srgb, var(--_warning) 14%, transparent); }
  .error-text.on::before { content: '⚠ '; }
  .error-text:not(.on) { display: none; }
  .ok-text { color: var(--_success); }
  code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8125rem; overflow-wrap: anywhere; }
`;

/** The message a person can act on for a voice call's failure. */
export function voiceMessage(e: unknown): string {
  if (e instanceof ApiError) {
    if (e.status === 404 && (e.reason === 'generation_not_found' || /Generation/.test(e.message))) return 'This clip no longer exists: it was deleted, perhaps in another tab.';
    if (e.reason === 'wrong_key_scope') return 'Voice is not available with this sign-in.';
    if (e.status === 429) return 'Too many requests. Wait a minute, then try again.';
  }
  return messageOf(e);
}

/** True when the API says this account may not make audio (email or credits missing, or no voice access). */
export const notEnabled = (e: unknown) => e instanceof ApiError && (e.reason === 'voice_not_enabled' || e.reason === 'wrong_key_scope');

/** True when the failure means the clip is gone. */
export const gone = (e: unknown) => e instanceof ApiError && e.status === 404;

/** A date and time as the reader's locale writes it. */
export function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
