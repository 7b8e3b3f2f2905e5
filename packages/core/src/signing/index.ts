import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { sessionRoutes } from './routes';
import { SigningSessionService } from './session-service';

export * from './audit-chain';
export * from './presenters';
export * from './schemas';
export * from './session-service';
export * from './signing-support';

/** Signing sessions for contract questions: sessions, signer links, sealed PDFs, audit (docs/signing.md). */
export const signingArea = definePlugin({
  name: 'signing',
  version: CORE_VERSION,
  services: [SigningSessionService],
  routes: (ctx) => [...sessionRoutes(ctx)],
});
