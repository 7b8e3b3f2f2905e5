import { css } from 'lit';

/** The summary's HTML bars, NPS split, files and sub-cards (summary-bars.ts, question-card.ts). */
export const summaryStyles = css`
  .stack { grid-template-columns: minmax(0, 1fr); }
  .small { font-size: 0.8125rem; }
  h4 { margin: 0; font-size: 0.95rem; }
  .bars { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.55rem; }
  .brow { display: grid; grid-template-columns: minmax(0, 1fr) auto; column-gap: 0.6rem; row-gap: 0.15rem; align-items: center; }
  .blabel { grid-column: 1 / -1; overflow-wrap: anywhere; font-size: 0.875rem; }
  .btrack { height: 0.75rem; border-radius: 999px; background: color-mix(in srgb, var(--_border) 55%, transparent); overflow: hidden; }
  .bfill { display: block; height: 100%; min-width: 2px; background: var(--_primary); border-radius: inherit; }
  .bnum { font-size: 0.8125rem; font-variant-numeric: tabular-nums; white-space: nowrap; min-width: 6.5rem; text-align: right; }
  .tag { font-size: 0.75rem; padding: 0 0.4rem; border-radius: 999px; border: 1px solid var(--_border); color: var(--_muted); }
  .more { justify-self: start; }
  .drop { grid-column: 1 / -1; color: var(--_danger); }
  .bfill.views, .bfill.starts { background: color-mix(in srgb, var(--_primary) 60%, var(--_surface)); }
  .bfill.completed { background: var(--_success); }
  .stacked { display: flex; height: 1.25rem; border-radius: var(--_radius); overflow: hidden; background: var(--_border); }
  .seg { display: block; height: 100%; }
  .promoters { background: #15803d; }
  .passives { background: #a1a1aa; }
  .detractors { background: #b91c1c; }
  .legend { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.3rem 1rem; font-size: 0.875rem; }
  .swatch { display: inline-block; width: 0.75rem; height: 0.75rem; border-radius: 2px; margin-right: 0.35rem; vertical-align: -0.05rem; }
  .files { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.6rem; grid-template-columns: repeat(auto-fill, minmax(8rem, 1fr)); }
  .files li { display: grid; gap: 0.3rem; font-size: 0.8125rem; overflow-wrap: anywhere; }
  .files img, .fileicon { width: 100%; aspect-ratio: 4 / 3; object-fit: cover; border-radius: var(--_radius); border: 1px solid var(--_border); background: var(--_bg); }
  .fileicon { display: grid; place-items: center; font-weight: 700; color: var(--_muted); }
  .subcards { display: grid; gap: 0.75rem; }
  .subcard { display: grid; gap: 0.5rem; padding: 0.75rem; border: 1px solid var(--_border); border-radius: var(--_radius); }
`;
