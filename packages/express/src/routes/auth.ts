import {
  authConfigOut,
  emailOnlySchema,
  MailLinkService,
  PasskeyService,
  passkeyFinishSchema,
  passkeyOptionsOut,
  passkeyOptionsSchema,
  PasswordSignInService,
  presentUser,
  resetCompleteSchema,
  sentOut,
  sessionOut,
  signedInOut,
  signedUpOut,
  signInSchema,
  signUpSchema,
  tokenSchema,
  verifiedOut,
  type OpenedSession,
} from '@formloom/core';
import type { RouteContext, RouteResult, RouteSpec } from '../route-table';
import type { SessionMount } from '../session-auth';

const TAG = 'Sign-in';

/** The answer of an endpoint that opens a session: the user, the CSRF token, and the cookie. */
export const signedIn = (mount: SessionMount, opened: OpenedSession, status = 200, extra: Record<string, unknown> = {}): RouteResult => ({
  status,
  body: { user: presentUser(opened.user), csrf_token: opened.csrf_token, ...extra },
  headers: mount.cookie(opened),
});

const COOKIE_HEADER = { 'Set-Cookie': 'the new `formloom_session` cookie (HttpOnly, SameSite=Lax)' };

/**
 * Sign-up, sign-in, sign-out, mailed links (docs/accounts.md), served only when the router has `sessions`
 * options. Endpoints that run without a session check `Origin`; each is limited like failed API keys.
 */
export function authRoutes(mount: SessionMount): RouteSpec[] {
  const passwords = () => mount.formloom.service(PasswordSignInService);
  const links = () => mount.formloom.service(MailLinkService);
  const passkeys = () => mount.formloom.service(PasskeyService);
  const publicPost = (path: string, operationId: string, summary: string, rest: Omit<RouteSpec, 'method' | 'path' | 'operationId' | 'summary' | 'tag' | 'scope' | 'handler'>, run: (ctx: RouteContext) => Promise<RouteResult>): RouteSpec => ({
    method: 'post',
    path,
    operationId,
    summary,
    tag: TAG,
    scope: null,
    ...rest,
    errors: [...new Set([403, ...(rest.errors ?? [])])],
    handler: async (ctx) => {
      mount.requireOrigin(ctx.req);
      return run(ctx);
    },
  });
  return [
    {
      method: 'get',
      path: '/auth/config',
      operationId: 'getAuthConfig',
      summary: 'What the sign-in screens may offer: the signup mode, whether the instance has users, passkeys and mailed links',
      tag: TAG,
      scope: null,
      success: { status: 200, description: '{signup, has_users, passkeys, email_links}', schema: authConfigOut },
      handler: async () => ({ body: await passwords().describe(mount.signup) }),
    },
    publicPost(
      '/auth/signup',
      'signUp',
      'Make an account with email and password and sign in (signup mode: open, invite or closed)',
      { body: signUpSchema, success: { status: 201, description: '{user, csrf_token, invitation?} and the session cookie', schema: signedUpOut, headers: COOKIE_HEADER }, errors: [400, 403, 409] },
      async (ctx) => {
        const opened = await passwords().signUp(ctx.req.body, mount.signup, mount.meta(ctx.req));
        return signedIn(mount, opened, 201, opened.invitation ? { invitation: opened.invitation } : {});
      },
    ),
    publicPost(
      '/auth/signin',
      'signIn',
      'Sign in with email and password',
      { body: signInSchema, success: { status: 200, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400, 401] },
      async (ctx) => signedIn(mount, await passwords().signIn(ctx.req.body, mount.meta(ctx.req))),
    ),
    {
      method: 'get',
      path: '/auth/session',
      operationId: 'getSession',
      summary: 'The signed-in user, the CSRF token and the session',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 200, description: '{user, csrf_token, session}', schema: sessionOut },
      handler: async (ctx) => ({ body: mount.issuer.view(mount.sessionOf(ctx.req)) }),
    },
    {
      method: 'post',
      path: '/auth/signout',
      operationId: 'signOut',
      summary: 'End this session and clear its cookie',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 204, description: 'signed out' },
      handler: async (ctx) => {
        mount.sessionOf(ctx.req);
        await mount.issuer.signOut(ctx.principal);
        return { status: 204, body: undefined, headers: mount.clearCookie() };
      },
    },
    {
      method: 'post',
      path: '/auth/signout-all',
      operationId: 'signOutEverywhere',
      summary: 'End every session of the user, on every device',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 204, description: 'every session ended' },
      handler: async (ctx) => {
        mount.sessionOf(ctx.req);
        await mount.issuer.signOutEverywhere(ctx.principal.user_id);
        return { status: 204, body: undefined, headers: mount.clearCookie() };
      },
    },
    publicPost(
      '/auth/email-link',
      'requestSignInLink',
      'Mail a one-time sign-in link (answers the same whether or not the address has an account)',
      { body: emailOnlySchema, success: { status: 202, description: '{sent: true}', schema: sentOut }, errors: [400] },
      async (ctx) => ({ status: 202, body: await links().requestSignInLink(ctx.req.body) }),
    ),
    publicPost(
      '/auth/email-link/verify',
      'signInWithLink',
      'Sign in with the token of a mailed link (single use, 15 minutes)',
      { body: tokenSchema, success: { status: 200, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400] },
      async (ctx) => signedIn(mount, await links().signInWithLink(ctx.req.body, mount.meta(ctx.req))),
    ),
    publicPost(
      '/auth/password-reset',
      'requestPasswordReset',
      'Mail a password-reset link (answers the same whether or not the address has an account)',
      { body: emailOnlySchema, success: { status: 202, description: '{sent: true}', schema: sentOut }, errors: [400] },
      async (ctx) => ({ status: 202, body: await links().requestPasswordReset(ctx.req.body) }),
    ),
    publicPost(
      '/auth/password-reset/complete',
      'completePasswordReset',
      "Set a new password with a reset link's token; every other session of the user ends",
      { body: resetCompleteSchema, success: { status: 200, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400] },
      async (ctx) => signedIn(mount, await links().completePasswordReset(ctx.req.body, mount.meta(ctx.req))),
    ),
    publicPost(
      '/auth/verify-email',
      'verifyEmail',
      "Confirm the account's email address with a verification link's token",
      { body: tokenSchema, success: { status: 200, description: '{user}', schema: verifiedOut }, errors: [400] },
      async (ctx) => ({ body: await links().verifyEmail(ctx.req.body) }),
    ),
    publicPost(
      '/auth/passkeys/options',
      'passkeySignInOptions',
      'WebAuthn authentication options (for startAuthentication) and the id of their challenge',
      { body: passkeyOptionsSchema, success: { status: 200, description: '{challenge_id, options}', schema: passkeyOptionsOut } },
      async () => ({ body: await passkeys().authenticationOptions() }),
    ),
    publicPost(
      '/auth/passkeys/signin',
      'signInWithPasskey',
      "Sign in with a passkey: the authenticator's answer to the challenge",
      { body: passkeyFinishSchema, success: { status: 200, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400, 401] },
      async (ctx) => signedIn(mount, await passkeys().signIn(ctx.req.body, mount.meta(ctx.req))),
    ),
    {
      method: 'post',
      path: '/auth/verify-email/resend',
      operationId: 'resendVerificationEmail',
      summary: 'Mail a new verification link to the signed-in user',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 202, description: '{sent: true}', schema: sentOut },
      handler: async (ctx) => {
        mount.sessionOf(ctx.req);
        return { status: 202, body: await links().resendVerification(ctx.principal.user_id) };
      },
    },
  ];
}
