import { Readable } from 'node:stream';
import {
  ACCOUNT_EXPORT_README,
  AccountExportService,
  AccountDeletionService,
  accountDeletionSchema,
  deletionDoneOut,
  deletionPlanOut,
  AccountProfileService,
  PasskeyService,
  passkeyFinishSchema,
  passkeyListOut,
  passkeyOptionsOut,
  passkeyOptionsSchema,
  passkeyOut,
  accountOut,
  apiKeyCreatedOut,
  apiKeyCreateSchema,
  apiKeyListOut,
  csrfOut,
  passwordChangeSchema,
  profilePatchSchema,
  sessionListOut,
} from '@formloom/core';
import { param, type RouteContext, type RouteResult, type RouteSpec } from '../route-table';
import type { SessionMount } from '../session-auth';

const TAG = 'Account';

/**
 * The signed-in user's account (docs/accounts.md): profile, password, sessions, API keys. Served only with
 * `sessions` options. `GET /account` also takes a key; the rest need the session.
 */
export function accountRoutes(mount: SessionMount): RouteSpec[] {
  const profile = () => mount.formloom.service(AccountProfileService);
  const passkeys = () => mount.formloom.service(PasskeyService);
  const withSession =
    (run: (ctx: RouteContext) => Promise<RouteResult>) =>
    async (ctx: RouteContext): Promise<RouteResult> => {
      mount.sessionOf(ctx.req);
      return run(ctx);
    };
  return [
    {
      method: 'get',
      path: '/account',
      operationId: 'getAccount',
      summary: 'The signed-in user (or the key\'s owner), and whether they administer the instance',
      tag: TAG,
      scope: 'forms',
      success: { status: 200, description: '{user, is_admin}', schema: accountOut },
      handler: async (ctx) => ({ body: await profile().get(ctx.principal) }),
    },
    {
      method: 'patch',
      path: '/account',
      operationId: 'updateAccount',
      summary: 'Change the first and last name',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      body: profilePatchSchema,
      success: { status: 200, description: '{user, is_admin}', schema: accountOut },
      errors: [400],
      handler: withSession(async (ctx) => ({ body: await profile().update(ctx.principal, ctx.req.body) })),
    },
    {
      method: 'get',
      path: '/account/export',
      operationId: 'exportAccount',
      summary: 'Download everything this server holds about you: a ZIP of JSON documents (account, keys, sessions, teams, forms, credits, voice) and your audio files',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 200, description: 'a ZIP archive (docs/accounts.md "Your data")', media: ['application/zip'] },
      handler: withSession(async (ctx) => {
        const { documents, files, name } = await mount.formloom.service(AccountExportService).collect(ctx.principal);
        // Loaded at the first export: most servers never make one (docs/benchmarks.md, "Where the memory goes").
        const { default: JSZip } = await import('jszip');
        const zip = new JSZip();
        zip.file('README.txt', ACCOUNT_EXPORT_README);
        for (const [path, doc] of Object.entries(documents)) zip.file(path, `${JSON.stringify(doc, null, 2)}\n`);
        for (const f of files) {
          const data = await f.read();
          if (data) zip.file(f.path, data);
        }
        // JSZip's stream is an old-style one: `wrap` makes it the async-iterable stream the router reads.
        const stream = new Readable().wrap(zip.generateNodeStream({ type: 'nodebuffer', streamFiles: true, compression: 'DEFLATE' }) as unknown as NodeJS.ReadableStream);
        return { contentType: 'application/zip', attachment: `${name}.zip`, stream };
      }),
    },
    {
      method: 'get',
      path: '/account/deletion',
      operationId: 'planAccountDeletion',
      summary: 'What deleting your account would delete, and what must be done first (docs/accounts.md "Deleting an account")',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 200, description: '{forms, responses, signed_contracts, teams_deleted[], teams_left[], blockers[]}', schema: deletionPlanOut },
      handler: withSession(async (ctx) => ({ body: await mount.formloom.service(AccountDeletionService).planOwn(ctx.principal) })),
    },
    {
      method: 'delete',
      path: '/account',
      operationId: 'deleteAccount',
      summary: 'Delete your account: your forms, responses and files, keys, sessions, passkeys, credits; team forms stay with their team. Irreversible',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      body: accountDeletionSchema,
      success: { status: 200, description: '{deleted, forms, responses, teams_deleted}; the session cookie is cleared', schema: deletionDoneOut },
      errors: [400, 403, 409],
      handler: withSession(async (ctx) => {
        const done = await mount.formloom.service(AccountDeletionService).deleteOwn(ctx.principal, ctx.req.body);
        return { body: done, headers: mount.clearCookie() };
      }),
    },
    {
      method: 'post',
      path: '/account/password',
      operationId: 'changePassword',
      summary: 'Change the password; every other session of the user ends, this one continues',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      body: passwordChangeSchema,
      success: { status: 200, description: '{csrf_token}', schema: csrfOut },
      errors: [400],
      handler: withSession(async (ctx) => {
        await profile().changePassword(ctx.principal, ctx.req.body);
        return { body: { csrf_token: mount.sessionOf(ctx.req).csrf_token } };
      }),
    },
    {
      method: 'get',
      path: '/account/sessions',
      operationId: 'listAccountSessions',
      summary: "The user's sessions, the current one marked",
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 200, description: '{sessions[]}', schema: sessionListOut },
      handler: withSession(async (ctx) => ({ body: await profile().sessions(ctx.principal) })),
    },
    {
      method: 'delete',
      path: '/account/sessions/:sessionId',
      operationId: 'endAccountSession',
      summary: 'End one of the user\'s sessions',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 204, description: 'the session ended' },
      handler: withSession(async (ctx) => {
        await profile().endSession(ctx.principal, param(ctx, 'sessionId'));
        return { status: 204, body: undefined };
      }),
    },
    {
      method: 'get',
      path: '/account/api-keys',
      operationId: 'listAccountApiKeys',
      summary: "The user's API keys, revoked ones too (never a secret)",
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 200, description: '{api_keys[]}', schema: apiKeyListOut },
      handler: withSession(async (ctx) => ({ body: await profile().apiKeys(ctx.principal) })),
    },
    {
      method: 'post',
      path: '/account/api-keys',
      operationId: 'createAccountApiKey',
      summary: 'Create an API key with a name, scope and monthly limit; its secret is shown only in this answer',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      body: apiKeyCreateSchema,
      success: { status: 201, description: '{key_id, api_key, name, scope, monthly_limit, created_at}', schema: apiKeyCreatedOut },
      errors: [400],
      handler: withSession(async (ctx) => ({ status: 201, body: await profile().createApiKey(ctx.principal, ctx.req.body) })),
    },
    {
      method: 'delete',
      path: '/account/api-keys/:keyId',
      operationId: 'revokeAccountApiKey',
      summary: 'Revoke one of the user\'s API keys',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 204, description: 'revoked' },
      handler: withSession(async (ctx) => {
        await profile().revokeApiKey(ctx.principal, param(ctx, 'keyId'));
        return { status: 204, body: undefined };
      }),
    },
    {
      method: 'post',
      path: '/account/passkeys/options',
      operationId: 'passkeyRegistrationOptions',
      summary: 'WebAuthn registration options (for startRegistration) and the id of their challenge',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      body: passkeyOptionsSchema,
      success: { status: 200, description: '{challenge_id, options}', schema: passkeyOptionsOut },
      handler: withSession(async (ctx) => ({ body: await passkeys().registrationOptions(ctx.principal, ctx.req.body) })),
    },
    {
      method: 'post',
      path: '/account/passkeys',
      operationId: 'registerPasskey',
      summary: "Register a passkey: the authenticator's answer to the registration challenge",
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      body: passkeyFinishSchema,
      success: { status: 201, description: 'the passkey', schema: passkeyOut },
      errors: [400, 409],
      handler: withSession(async (ctx) => ({ status: 201, body: await passkeys().register(ctx.principal, ctx.req.body) })),
    },
    {
      method: 'get',
      path: '/account/passkeys',
      operationId: 'listPasskeys',
      summary: "The user's passkeys",
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 200, description: '{passkeys[]}', schema: passkeyListOut },
      handler: withSession(async (ctx) => ({ body: await passkeys().list(ctx.principal) })),
    },
    {
      method: 'delete',
      path: '/account/passkeys/:passkeyId',
      operationId: 'deletePasskey',
      summary: 'Remove one of the user\'s passkeys',
      tag: TAG,
      scope: 'forms',
      sessionOnly: true,
      success: { status: 204, description: 'removed' },
      handler: withSession(async (ctx) => {
        await passkeys().remove(ctx.principal, param(ctx, 'passkeyId'));
        return { status: 204, body: undefined };
      }),
    },
  ];
}
