import type { RouteName } from './routes';

/**
 * Which element shows each route, and how its code is loaded (docs/workspace.md, "Adding a screen"). The
 * forms list is in the first bundle; the builder and the rest load on demand, so the first screen stays small.
 */
export interface ScreenEntry {
  tag: string;
  /** True when the screen needs someone signed in. */
  needsAuth: boolean;
  load: () => Promise<unknown>;
}

const placeholder = { tag: 'fl-signin-placeholder', needsAuth: false, load: () => import('./signin-placeholder') };

export const SCREENS: Record<RouteName, ScreenEntry> = {
  forms: { tag: 'fl-forms-list', needsAuth: true, load: () => import('../forms-list/forms-list') },
  form: { tag: 'formloom-builder', needsAuth: true, load: () => import('../builder/builder') },
  signin: placeholder,
  signup: placeholder,
  forgot: placeholder,
  'auth-link': placeholder,
  'auth-reset': placeholder,
  'auth-verify': placeholder,
  account: placeholder,
  'not-found': { tag: 'fl-not-found', needsAuth: false, load: () => import('./not-found') },
};
