import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { sessionRoutes } from './routes';
import { SigningSessionService } from './session-service';
import { SigningSealHandler } from './seal-handler';
import { SignerService } from './signer-service';
import { signerRoutes } from './signer-routes';
import { SigningVerificationService } from './verification-service';

export * from './audit-chain';
export * from './presenters';
export * from './schemas';
export * from './session-service';
export * from './signing-support';
export * from './seal-handler';
export * from './signer-service';
export * from './signer-access';
export * from './signing-mails';
export * from './verification-service';
export * from './output-schemas';

/** Signing sessions for contract questions: sessions, signer links, sealed PDFs, audit (docs/signing.md). */
export const signingArea = definePlugin({
  name: 'signing',
  version: CORE_VERSION,
  services: [SigningSessionService, SignerService, SigningSealHandler, SigningVerificationService],
  outboxHandlers: (ctx) => [ctx.service(SigningSealHandler)],
  routes: (ctx) => [...sessionRoutes(ctx), ...signerRoutes(ctx)],
});
