import { css } from 'lit';

/** The Signing tab's layout: the sessions list, the new-session dialog and a session's page. */
export const signingStyles = css`
  :host { display: block; }
  .wrap { max-width: 64rem; margin: 0 auto; padding: 1rem; display: grid; gap: 1rem; }
  .head { display: flex; justify-content: space-between; align-items: center; gap: 0.75rem; flex-wrap: wrap; }
  .bar { display: flex; gap: 0.75rem; align-items: end; flex-wrap: wrap; }
  .bar label.field { min-width: 11rem; }
  .scroll { overflow-x: auto; }
  table { border-collapse: collapse; width: 100%; font-size: 0.875rem; }
  th, td { text-align: left; padding: 0.45rem 0.5rem; border-bottom: 1px solid var(--_border); vertical-align: top; }
  th { font-weight: 600; }
  td.num { font-variant-numeric: tabular-nums; }
  .badge { display: inline-block; border: 1px solid currentColor; border-radius: 999px; padding: 0.05rem 0.55rem; font-size: 0.8125rem; font-weight: 600; white-space: nowrap; }
  .st-active, .st-pending { color: var(--_primary); }
  .st-fully_signed, .st-signed { color: var(--_success); }
  .st-declined, .st-voided { color: var(--_danger); }
  .st-expired { color: var(--_warning); }
  .pager { display: flex; gap: 0.5rem; align-items: center; justify-content: space-between; flex-wrap: wrap; }
  .meta { display: grid; gap: 0.6rem 1.5rem; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); margin: 0; }
  .meta div { display: grid; gap: 0.1rem; }
  .meta dt { font-size: 0.8125rem; color: var(--_muted); }
  .meta dd { margin: 0; overflow-wrap: anywhere; }
  .signers { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.75rem; }
  .signer { display: grid; gap: 0.5rem; border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; }
  .signer .who { display: flex; gap: 0.5rem; align-items: baseline; flex-wrap: wrap; justify-content: space-between; }
  .times { display: flex; gap: 0.25rem 1rem; flex-wrap: wrap; font-size: 0.875rem; color: var(--_muted); margin: 0; padding: 0; list-style: none; }
  .link { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: end; }
  .link input { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.875rem; }
  .notice { border-left: 4px solid var(--_success); }
  .check-ok { border-left: 4px solid var(--_success); }
  .check-bad { border-left: 4px solid var(--_danger); }
  .hash { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.8125rem; overflow-wrap: anywhere; }
  .docs { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.6rem; }
  .docs li { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 0.5rem; align-items: center; }
  p { margin: 0; line-height: 1.45; }
  fieldset { border: 1px solid var(--_border); border-radius: var(--_radius); padding: 0.75rem; margin: 0; display: grid; gap: 0.6rem; min-width: 0; }
  legend { font-weight: 600; padding: 0 0.25rem; }
  .hint { font-size: 0.8125rem; }
  @media (max-width: 480px) {
    .wrap { padding: 0.75rem 0.5rem; }
    .link { grid-template-columns: minmax(0, 1fr); }
    .docs li { grid-template-columns: minmax(0, 1fr); }
  }
`;
