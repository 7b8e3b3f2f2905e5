import { css } from 'lit';

/** The account page's sections: one card each, a heading, a list of rows with their actions. */
export const sectionStyles = css`
  :host { display: block; }
  section.card { display: grid; gap: 0.85rem; }
  form { display: grid; gap: 0.75rem; }
  p { margin: 0; line-height: 1.5; }
  ul.rows { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.5rem; }
  ul.rows li { display: flex; gap: 0.75rem; align-items: center; justify-content: space-between; flex-wrap: wrap; padding: 0.6rem 0; border-top: 1px solid var(--_border); }
  ul.rows li:first-child { border-top: 0; }
  .what { display: grid; gap: 0.15rem; min-width: 0; }
  .what strong { overflow-wrap: anywhere; }
  .meta { font-size: 0.8125rem; color: var(--_muted); }
  .badge { font-size: 0.75rem; padding: 0.1rem 0.45rem; border-radius: 999px; border: 1px solid var(--_border); color: var(--_muted); }
  .badge.ok { color: var(--_success); border-color: currentColor; }
  .secret { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8125rem; overflow-wrap: anywhere; padding: 0.6rem; border-radius: var(--_radius); background: var(--_bg); border: 1px dashed var(--_border); }
  .notice { padding: 0.75rem; border-radius: var(--_radius); background: color-mix(in srgb, var(--_primary) 10%, transparent); }
  .error-text.on::before { content: '⚠ '; }
  .error-text:not(.on) { display: none; }
  .ok-text { color: var(--_success); }
`;

/** A date and time as the reader's locale writes it. */
export function when(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "Chrome on Linux" from a User-Agent header: what a person recognises in a list of sessions. */
export function browserName(ua: string | null | undefined): string {
  if (!ua) return 'Unknown browser';
  const app = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrom(e|ium)\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : (/^[\w.-]+/.exec(ua)?.[0] ?? 'Unknown browser');
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : null;
  return os ? `${app} on ${os}` : app;
}
