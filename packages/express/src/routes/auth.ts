import {
  authConfigOut,
  emailOnlySchema,
  MailLinkService,
  PasskeyService,
  passkeyFinishSchema,
  passkeyOptionsOut,
  passkeyOptionsSchema,
  PasswordSignInService,
  PendingSignUpService,
  presentUser,
  resetCompleteSchema,
  sentOut,
  sessionOut,
  signedInOut,
  signedUpOut,
  signInSchema,
  signUpFinishSchema,
  signUpSchema,
  tokenSchema,
  verifiedOut,
  type Deferred,
  type OpenedSession,
} from '@formloom/core';
import type { Request } from 'express';
import type { RouteContext, RouteResult, RouteSpec } from '../route-table';
import type { SessionMount } from '../session-auth';

const TAG = 'Sign-in';

/** The answer of an endpoint that opens a session: the user, the CSRF token, and the cookie. */
export const signedIn = (mount: SessionMount, opened: OpenedSession, status = 200, extra: Record<string, unknown> = {}): RouteResult => ({
  status,
  body: { user: presentUser(opened.user), csrf_token: opened.csrf_token, ...extra },
  headers: mount.cookie(opened),
});

/**
 * Runs a sign-in that opens a session, then ends the session whose cookie the request presented (the
 * browser gets a new cookie; docs/security.md "Sessions and CSRF"). `open` is told the presented
 * session's account, for the first proof of an address.
 */
async function signingIn(mount: SessionMount, req: Request, open: (sessionUser: string | null) => Promise<OpenedSession>): Promise<OpenedSession> {
  const presented = await mount.presented(req);
  const opened = await open(presented?.user.id ?? null);
  await mount.replaces(presented);
  return opened;
}

/**
 * Answers `202 {sent: true}` and runs the deferred work once the answer is out: the answer of a request
 * that may send mail waits for no lookup and no write, whatever the address (docs/security.md).
 */
function answerFirst(req: Request, deferred: Deferred): RouteResult {
  req.res!.once('close', () => void deferred.work());
  return { status: 202, body: deferred.answer };
}

const COOKIE_HEADER = { 'Set-Cookie': 'the new `formloom_session` cookie (HttpOnly, SameSite=Lax)' };

/**
 * Sign-up, sign-in, sign-out, mailed links (docs/accounts.md), served only when the router has `sessions`
 * options. Endpoints that run without a session check `Origin`; each is limited like failed API keys.
 */
export function authRoutes(mount: SessionMount): RouteSpec[] {
  const passwords = () => mount.formloom.service(PasswordSignInService);
  const links = () => mount.formloom.service(MailLinkService);
  const passkeys = () => mount.formloom.service(PasskeyService);
  const pendingSignUps = () => mount.formloom.service(PendingSignUpService);
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
      'Make an account with email and password (signup mode: open, invite or closed): at once for the first account and with an invitation token, else by a mailed link (202 for every address)',
      {
        body: signUpSchema,
        success: {
          status: 201,
          description: 'The first account of an empty instance, or an invitation token for its address: {user, csrf_token, invitation?} and the session cookie',
          schema: signedUpOut,
          headers: COOKIE_HEADER,
          others: [
            {
              status: 202,
              description:
                '`open` mode: {sent: true} whether or not the address has an account. A new address gets a link that makes the account (`POST /auth/signup/finish`); the owner of a known one is told by mail',
              schema: sentOut,
            },
          ],
        },
        errors: [400, 403, 409],
      },
      async (ctx) => {
        const presented = await mount.presented(ctx.req);
        const result = await passwords().signUp(ctx.req.body, mount.signup, mount.meta(ctx.req));
        if ('deferred' in result) return answerFirst(ctx.req, result.deferred);
        await mount.replaces(presented);
        const { opened } = result;
        return signedIn(mount, opened, 201, opened.invitation ? { invitation: opened.invitation } : {});
      },
    ),
    publicPost(
      '/auth/signup/finish',
      'finishSignUp',
      "Make the account of a mailed sign-up link: its token and the password chosen at sign-up; signs in",
      { body: signUpFinishSchema, success: { status: 201, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400, 401, 409] },
      async (ctx) => signedIn(mount, await signingIn(mount, ctx.req, () => pendingSignUps().finish(ctx.req.body, mount.meta(ctx.req))), 201),
    ),
    publicPost(
      '/auth/signin',
      'signIn',
      'Sign in with email and password',
      { body: signInSchema, success: { status: 200, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400, 401] },
      async (ctx) => signedIn(mount, await signingIn(mount, ctx.req, () => passwords().signIn(ctx.req.body, mount.meta(ctx.req)))),
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
      async (ctx) => answerFirst(ctx.req, links().requestSignInLink(ctx.req.body)),
    ),
    publicPost(
      '/auth/email-link/verify',
      'signInWithLink',
      'Sign in with the token of a mailed link (single use, 15 minutes)',
      { body: tokenSchema, success: { status: 200, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400] },
      async (ctx) => signedIn(mount, await signingIn(mount, ctx.req, (by) => links().signInWithLink(ctx.req.body, mount.meta(ctx.req), by))),
    ),
    publicPost(
      '/auth/password-reset',
      'requestPasswordReset',
      'Mail a password-reset link (answers the same whether or not the address has an account)',
      { body: emailOnlySchema, success: { status: 202, description: '{sent: true}', schema: sentOut }, errors: [400] },
      async (ctx) => answerFirst(ctx.req, links().requestPasswordReset(ctx.req.body)),
    ),
    publicPost(
      '/auth/password-reset/complete',
      'completePasswordReset',
      "Set a new password with a reset link's token; every other session of the user ends",
      { body: resetCompleteSchema, success: { status: 200, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400] },
      async (ctx) => signedIn(mount, await signingIn(mount, ctx.req, (by) => links().completePasswordReset(ctx.req.body, mount.meta(ctx.req), by))),
    ),
    publicPost(
      '/auth/verify-email',
      'verifyEmail',
      "Confirm the account's email address with a verification link's token",
      { body: tokenSchema, success: { status: 200, description: '{user}', schema: verifiedOut }, errors: [400] },
      async (ctx) => ({ body: await links().verifyEmail(ctx.req.body, (await mount.presented(ctx.req))?.user.id ?? null) }),
    ),
    publicPost(
      '/auth/passkeys/options',
      'passkeySignInOptions',
      'WebAuthn authentication options (for startAuthentication) and the id of their challenge',
      { body: passkeyOptionsSchema, success: { status: 200, description: '{challenge_id, options}', schema: passkeyOptionsOut } },
      async (ctx) => ({ body: await passkeys().authenticationOptions(ctx.req.body) }),
    ),
    publicPost(
      '/auth/passkeys/signin',
      'signInWithPasskey',
      "Sign in with a passkey: the authenticator's answer to the challenge",
      { body: passkeyFinishSchema, success: { status: 200, description: '{user, csrf_token} and the session cookie', schema: signedInOut, headers: COOKIE_HEADER }, errors: [400, 401] },
      async (ctx) => signedIn(mount, await signingIn(mount, ctx.req, () => passkeys().signIn(ctx.req.body, mount.meta(ctx.req)))),
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
