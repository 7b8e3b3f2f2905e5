import { css } from 'lit';

/**
 * The results screen's layout: summary cards and charts, the responses table and its detail panel. Its grids
 * have one `minmax(0, 1fr)` column: an auto column grows to its widest unbreakable line, which once pushed
 * the whole screen past a phone's width.
 */
export const resultsStyles = css`
  :host { display: block; }
  .wrap { max-width: 72rem; margin: 0 auto; padding: 1rem; display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
  .bar { display: flex; gap: 0.75rem; align-items: end; flex-wrap: wrap; }
  .bar label.field { min-width: 9rem; }
  .views { display: flex; gap: 0.25rem; border-bottom: 1px solid var(--_border); }
  .views button { font: inherit; background: none; border: 0; border-bottom: 3px solid transparent; padding: 0.6rem 0.8rem; color: var(--_text); cursor: pointer; min-height: 2.75rem; }
  .views button[aria-pressed='true'] { border-bottom-color: var(--_primary); font-weight: 600; }
  .stats { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fit, minmax(10rem, 1fr)); }
  .stat { display: grid; gap: 0.2rem; }
  .stat .n { font-size: 1.6rem; font-weight: 700; }
  .chart { position: relative; height: 14rem; }
  .chart.tall { height: 18rem; }
  .qcard { display: grid; gap: 0.6rem; grid-template-columns: minmax(0, 1fr); }
  .qhead { display: flex; justify-content: space-between; gap: 0.5rem; flex-wrap: wrap; align-items: baseline; }
  .qhead h3, .qhead h4 { min-width: 0; overflow-wrap: anywhere; }
  .figures { display: flex; gap: 1.25rem; flex-wrap: wrap; }
  .figures b { font-size: 1.2rem; }
  details summary { cursor: pointer; color: var(--_muted); font-size: 0.875rem; min-height: 2rem; display: flex; align-items: center; }
  table { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
  th, td { text-align: left; padding: 0.4rem 0.5rem; border-bottom: 1px solid var(--_border); vertical-align: top; }
  th { font-weight: 600; }
  td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
  .latest { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.4rem; }
  .latest li { border-left: 3px solid var(--_border); padding-left: 0.6rem; }
  .live { font-size: 0.8125rem; }
  @media (max-width: 480px) { .wrap { padding: 0.75rem 0.5rem; } .chart { height: 12rem; } }
`;
