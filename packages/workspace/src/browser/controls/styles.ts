import { css } from 'lit';

/*
 * The look of every workspace element, driven by CSS custom properties (docs/workspace.md, "Theming the
 * workspace"): a host sets them on `formloom-builder` or any ancestor, and they cross the shadow roots.
 * Each property has a default here, so an element looks right with none set.
 */
export const tokens = css`
  :host {
    --_primary: var(--fl-color-primary, #4f46e5);
    --_primary-text: var(--fl-color-primary-text, #ffffff);
    --_bg: var(--fl-color-background, #f7f7f8);
    --_surface: var(--fl-color-surface, #ffffff);
    --_text: var(--fl-color-text, #18181b);
    --_muted: var(--fl-color-muted, #52525b);
    --_border: var(--fl-color-border, #d4d4d8);
    --_danger: var(--fl-color-danger, #b91c1c);
    --_success: var(--fl-color-success, #15803d);
    --_warning: var(--fl-color-warning, #92400e);
    --_radius: var(--fl-radius, 8px);
    --_focus: var(--fl-focus-ring, 0 0 0 3px color-mix(in srgb, var(--_primary) 45%, transparent));
    --_font: var(--fl-font-family, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    font-family: var(--_font);
    color: var(--_text);
    box-sizing: border-box;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_primary: var(--fl-color-primary, #a5b4fc);
      --_primary-text: var(--fl-color-primary-text, #1e1b4b);
      --_bg: var(--fl-color-background, #111114);
      --_surface: var(--fl-color-surface, #1c1c21);
      --_text: var(--fl-color-text, #f4f4f5);
      --_muted: var(--fl-color-muted, #b4b4bd);
      --_border: var(--fl-color-border, #3f3f46);
      --_danger: var(--fl-color-danger, #fca5a5);
      --_success: var(--fl-color-success, #86efac);
      --_warning: var(--fl-color-warning, #fcd34d);
    }
  }
  *, *::before, *::after { box-sizing: inherit; }
`;

/** Buttons, fields and cards shared by the screens (class names, not elements, to keep the DOM small). */
export const controls = css`
  .btn {
    font: inherit; font-size: 0.9375rem; line-height: 1.2; min-height: 2.5rem; padding: 0.5rem 0.9rem;
    border-radius: var(--_radius); border: 1px solid var(--_border); background: var(--_surface); color: var(--_text);
    cursor: pointer; display: inline-flex; align-items: center; gap: 0.4rem; text-decoration: none; white-space: nowrap;
  }
  .btn:hover { border-color: var(--_muted); }
  .btn:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible, a:focus-visible, [tabindex]:focus-visible {
    outline: 2px solid var(--_primary); outline-offset: 2px; box-shadow: var(--_focus);
  }
  .btn.primary { background: var(--_primary); color: var(--_primary-text); border-color: var(--_primary); }
  .btn.danger { color: var(--_danger); }
  .btn.danger.solid { background: var(--_danger); color: var(--_surface); border-color: var(--_danger); }
  .btn.small { min-height: 2.25rem; padding: 0.3rem 0.6rem; font-size: 0.875rem; }
  .btn.icon { min-width: 2.5rem; justify-content: center; padding: 0.4rem; }
  .btn[disabled] { opacity: 0.55; cursor: not-allowed; }
  label.field { display: grid; gap: 0.3rem; font-size: 0.875rem; font-weight: 600; color: var(--_text); }
  label.check { display: flex; gap: 0.5rem; align-items: center; font-size: 0.9375rem; min-height: 2.25rem; }
  input[type='checkbox'], input[type='radio'] { width: 1.15rem; height: 1.15rem; flex: none; accent-color: var(--_primary); }
  input:not([type='checkbox']):not([type='radio']):not([type='color']), select, textarea {
    font: inherit; font-weight: 400; font-size: 1rem; padding: 0.5rem 0.65rem; min-height: 2.5rem; width: 100%;
    border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); color: var(--_text);
  }
  textarea { min-height: 5rem; resize: vertical; }
  input[type='color'] { width: 3rem; height: 2.5rem; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); padding: 2px; }
  .card { background: var(--_surface); border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 1.5); padding: 1rem; }
  .muted { color: var(--_muted); }
  .error-text { color: var(--_danger); }
  .row { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
  .grid2 { display: grid; gap: 0.75rem; grid-template-columns: repeat(auto-fit, minmax(min(14rem, 100%), 1fr)); }
  .stack { display: grid; gap: 0.75rem; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  h1, h2, h3 { margin: 0; line-height: 1.25; }
  h1 { font-size: 1.375rem; }
  h2 { font-size: 1.125rem; }
  h3 { font-size: 1rem; }
  a { color: var(--_primary); }
`;
