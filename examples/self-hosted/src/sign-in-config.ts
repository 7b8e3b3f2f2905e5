import { SIGNUP_MODES, type SignupMode } from '@formloom/core';
import type { Env } from './config';

/**
 * `FORMLOOM_SIGNUP` (docs/configuration.md, docs/accounts.md): who may make an account in the browser.
 * `invite` (default) admits addresses with a pending team invitation, `open` anyone, `closed` nobody (the
 * CLI makes accounts); the first account of an empty instance is always admitted and is its admin.
 */
export function readSignupMode(env: Env): SignupMode {
  const v = env.FORMLOOM_SIGNUP?.trim().toLowerCase() || 'invite';
  if (!SIGNUP_MODES.includes(v as SignupMode)) throw new Error(`FORMLOOM_SIGNUP: expected open, invite or closed, got ${JSON.stringify(env.FORMLOOM_SIGNUP)}`);
  return v as SignupMode;
}
