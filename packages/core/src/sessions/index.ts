import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { MailLinkService } from './mail-links';
import { PasswordSignInService } from './password-sign-in';
import { SessionIssuer } from './session-issuer';
import { AccountProfileService } from './account-profile';
import { PasskeyService } from './passkey-service';
import { PendingSignUpService } from './pending-signup';
import { InstanceAdminService } from './instance-admin';
import { AccountDeletionService } from './account-deletion';
import { AccountExportService } from './account-export';

export { PASSWORD_MAX, PASSWORD_MIN, sameSecret } from './secrets';
export * from './schemas';
export * from './session-issuer';
export * from './password-sign-in';
export * from './mail-links';
export * from './pending-signup';
export * from './account-profile';
export * from './passkey-service';
export * from './instance-admin';
export * from './admin-schemas';
export * from './account-deletion';
export * from './account-export';

/**
 * People who sign in (docs/accounts.md): passwords, sessions, mailed links. Its HTTP endpoints are served
 * by the Express router only when it is given `sessions` options (the self-hosted app).
 */
export const sessionsArea = definePlugin({
  name: 'sessions',
  version: CORE_VERSION,
  services: [SessionIssuer, MailLinkService, PendingSignUpService, PasswordSignInService, AccountProfileService, PasskeyService, InstanceAdminService, AccountDeletionService, AccountExportService],
});
