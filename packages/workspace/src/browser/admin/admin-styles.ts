import { css } from 'lit';

/** The admin area's layout: filters that wrap, people as rows that open in place, tabs as links. */
export const adminStyles = css`
  h1 { margin: 0 0 0.75rem; }
  .tabs { display: flex; gap: 0.25rem; flex-wrap: wrap; margin-bottom: 1rem; border-bottom: 1px solid var(--_border); }
  .tabs a { padding: 0.6rem 0.75rem; color: var(--_text); text-decoration: none; border-bottom: 3px solid transparent; }
  .tabs a[aria-current='page'] { border-bottom-color: var(--_primary); font-weight: 600; }
  .filters { display: flex; gap: 0.75rem; flex-wrap: wrap; align-items: end; margin: 0.75rem 0; }
  .filters .grow { flex: 1 1 14rem; min-width: 0; }
  .filters select, .filters input { max-width: 100%; }
  ul.people { list-style: none; margin: 0 0 1rem; padding: 0; display: grid; gap: 0.5rem; }
  ul.people > li { background: var(--_surface); border: 1px solid var(--_border); border-radius: var(--_radius); }
  .person-row { display: flex; justify-content: space-between; align-items: center; gap: 0.75rem; flex-wrap: wrap; width: 100%; text-align: left; background: none; border: 0; font: inherit; color: var(--_text); padding: 0.75rem; cursor: pointer; border-radius: var(--_radius); }
  .person-row:focus-visible { outline: 2px solid var(--_primary); outline-offset: 2px; }
  .detail { display: grid; gap: 0.75rem; padding: 0 0.75rem 0.75rem; }
  .detail h2 { margin: 0.25rem 0 0; font-size: 1rem; }
  .detail form.row { align-items: end; }
  .tags { display: flex; gap: 0.4rem; align-items: center; flex-wrap: wrap; }
`;

const PLAN_LABELS: Record<string, string> = { free: 'Free', pro: 'Pro', business: 'Business', enterprise: 'Enterprise' };

/** A plan's name as people read it. */
export const planLabel = (plan: string) => PLAN_LABELS[plan] ?? plan;
