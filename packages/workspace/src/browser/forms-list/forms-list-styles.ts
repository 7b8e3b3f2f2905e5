import { css } from 'lit';

export const listStyles = css`
  :host { display: block; }
  .page { max-width: 60rem; margin: 0 auto; padding: 1.25rem 1rem 3rem; display: grid; gap: 1rem; }
  .head { justify-content: space-between; }
  .templates { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fill, minmax(12rem, 1fr)); }
  .create-in { max-width: 20rem; margin-bottom: 0.75rem; }
  .small { font-size: 0.875rem; }
  .template { display: grid; gap: 0.25rem; text-align: left; font: inherit; color: var(--_text); cursor: pointer; }
  .template:hover { border-color: var(--_primary); }
  .template:focus-visible { outline: 2px solid var(--_primary); outline-offset: 2px; }
  .gallery { display: grid; gap: 0.6rem; }
  .gallery h2 { font-size: 1.05rem; margin: 0; }
  .template.themed { background: var(--tpl-bg); color: var(--tpl-text); border-color: color-mix(in srgb, var(--tpl-text) 22%, transparent); border-top: 4px solid var(--tpl-accent); }
  .template.themed strong { color: var(--tpl-title); font-size: 1.05rem; }
  .template.themed:hover { border-color: var(--tpl-accent); }
  .tpl-cat { font-size: 0.75rem; }
  .tpl-sum { font-size: 0.875rem; }
  .filters { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr) minmax(0, 1fr); gap: 0.75rem; align-items: end; }
  @media (max-width: 640px) { .filters { grid-template-columns: 1fr 1fr; } .filters .grow { grid-column: 1 / -1; } }
  .list { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.6rem; }
  .form { display: flex; gap: 0.75rem; align-items: center; flex-wrap: wrap; }
  .swatch { width: 0.6rem; align-self: stretch; border-radius: 4px; min-height: 2.5rem; }
  .main { flex: 1 1 14rem; min-width: 0; }
  .main h2 { font-size: 1.05rem; overflow-wrap: anywhere; }
  .main h2 a { color: var(--_text); text-decoration: none; }
  .main h2 a:hover { text-decoration: underline; }
  .meta { margin: 0.25rem 0 0; font-size: 0.875rem; }
  .badge { display: inline-block; padding: 0.05rem 0.45rem; border-radius: 999px; border: 1px solid var(--_border); font-size: 0.8125rem; color: var(--_muted); }
  .badge.live { color: var(--_success); border-color: currentColor; }
  .count { margin: 0; font-size: 0.875rem; }
  .empty { text-align: center; padding: 2rem 1rem; }
  .empty p { margin: 0.5rem 0 0; }
`;
