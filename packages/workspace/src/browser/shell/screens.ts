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


export const SCREENS: Record<RouteName, ScreenEntry> = {
  forms: { tag: 'fl-forms-list', needsAuth: true, load: () => import('../forms-list/forms-list') },
  form: { tag: 'formloom-builder', needsAuth: true, load: () => import('../builder/builder') },
  signin: { tag: 'fl-signin', needsAuth: false, load: () => import('../auth/signin') },
  signup: { tag: 'fl-signup', needsAuth: false, load: () => import('../auth/signup') },
  forgot: { tag: 'fl-forgot', needsAuth: false, load: () => import('../auth/forgot') },
  'auth-link': { tag: 'fl-auth-link', needsAuth: false, load: () => import('../auth/token-screens') },
  'auth-reset': { tag: 'fl-auth-reset', needsAuth: false, load: () => import('../auth/token-screens') },
  'auth-verify': { tag: 'fl-auth-verify', needsAuth: false, load: () => import('../auth/token-screens') },
  'auth-finish': { tag: 'fl-auth-finish', needsAuth: false, load: () => import('../auth/signup-finish') },
  account: { tag: 'fl-account', needsAuth: true, load: () => import('../account/account') },
  admin: { tag: 'fl-admin', needsAuth: true, load: () => import('../admin/admin-screen') },
  teams: { tag: 'fl-teams', needsAuth: true, load: () => import('../teams/teams-list') },
  team: { tag: 'fl-team', needsAuth: true, load: () => import('../teams/team-screen') },
  voice: { tag: 'fl-voice', needsAuth: true, load: () => import('../voice/voice-screen') },
  'not-found': { tag: 'fl-not-found', needsAuth: false, load: () => import('./not-found') },
};
