import { css } from 'lit';

export const builderStyles = css`
  :host { display: block; color: var(--_text); background: var(--_bg); }
  /* The title bar (with Publish and undo) stays in view while the page scrolls; the tabs scroll away. The
     wrapper makes no box, so the bar sticks within the whole builder rather than within the header. */
  .top { display: contents; }
  .titlebar { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; position: sticky; top: 0; z-index: 5; padding: 0.75rem 1rem 0.5rem; background: var(--_surface); }
  nav.tabs { padding: 0 1rem; background: var(--_surface); border-bottom: 1px solid var(--_border); }
  @media (max-width: 520px) { .titlebar { gap: 0.5rem; padding: 0.5rem 0.75rem; } .titlebar .name { flex-basis: 100%; } }
  .titlebar .name { flex: 1 1 14rem; min-width: 0; }
  .titlebar .readonly-title { margin: 0; font-size: 1.125rem; font-weight: 600; overflow-wrap: anywhere; }
  .titlebar input { font-size: 1.125rem; font-weight: 700; border-color: transparent; background: transparent; padding-left: 0.4rem; }
  .titlebar input:hover { border-color: var(--_border); }
  .status { display: flex; align-items: center; gap: 0.5rem; font-size: 0.875rem; color: var(--_muted); min-height: 2.25rem; }
  .status .dot { width: 0.55rem; height: 0.55rem; border-radius: 50%; background: var(--_success); }
  .status.saving .dot, .status.pending .dot { background: var(--_warning); }
  .status.failed, .status.conflict { color: var(--_danger); }
  .status.failed .dot, .status.conflict .dot { background: var(--_danger); }
  .history { display: flex; gap: 0.25rem; }
  .history .btn { gap: 0.3rem; }
  @media (max-width: 520px) { .history .label { display: none; } .history .btn { min-width: 2.5rem; justify-content: center; } }
  .badge { font-size: 0.8125rem; padding: 0.1rem 0.5rem; border-radius: 999px; border: 1px solid var(--_border); color: var(--_muted); }
  .badge.live { color: var(--_success); border-color: currentColor; }
  nav.tabs { display: flex; gap: 0.25rem; overflow-x: auto; scrollbar-width: thin; }
  @media (max-width: 520px) { nav.tabs { flex-wrap: wrap; column-gap: 0; } nav.tabs a, nav.tabs button { padding: 0.55rem 0.6rem; } }
  nav.tabs a, nav.tabs button { all: unset; cursor: pointer; padding: 0.6rem 0.75rem; border-bottom: 3px solid transparent; white-space: nowrap; color: var(--_muted); font-size: 0.9375rem; }
  nav.tabs [aria-current='page'] { color: var(--_text); border-bottom-color: var(--_primary); font-weight: 600; }
  nav.tabs a:focus-visible, nav.tabs button:focus-visible { outline: 2px solid var(--_primary); outline-offset: -2px; }
  .banner { margin: 0.75rem 1rem 0; padding: 0.75rem 1rem; border-radius: var(--_radius); border: 1px solid var(--_danger); background: color-mix(in srgb, var(--_danger) 8%, var(--_surface)); display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
  .banner p { margin: 0; flex: 1 1 16rem; }
  .body { padding: 1rem; }
  .viewer-note { margin: 0 0 1rem; padding: 0.6rem 0.9rem; border-radius: var(--_radius); border: 1px solid var(--_border); border-inline-start: 4px solid var(--_primary); background: var(--_surface); color: var(--_text); }
  .edit { display: grid; gap: 1rem; grid-template-columns: minmax(15rem, 22rem) minmax(0, 1fr) minmax(18rem, 26rem); align-items: start; }
  .edit > * { min-width: 0; }
  .sticky { position: sticky; top: calc(var(--_bar-h, 0px) + 0.75rem); }
  @media (max-width: 1100px) { .edit { grid-template-columns: minmax(14rem, 20rem) minmax(0, 1fr); } .edit fl-preview { grid-column: 1 / -1; } }
  /* A viewer's screen: the questions to read and the preview (no editor column). */
  .edit.readonly { grid-template-columns: minmax(15rem, 26rem) minmax(0, 1fr); }
  .edit.readonly fl-preview { grid-column: auto; }
  @media (max-width: 720px) { .edit, .edit.readonly { grid-template-columns: minmax(0, 1fr); } .sticky { position: static; } .body { padding: 0.75rem; } }
  .empty { text-align: center; padding: 2rem 1rem; }
  .screens { display: flex; gap: 0.5rem; flex-wrap: wrap; }
`;
