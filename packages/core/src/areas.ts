// The built-in capabilities. Adding one: a folder under src/ with its services, policies, schemas and
// presenters and an index.ts that exports them and its area plugin, then one line each below
// (docs/architecture.md, "Adding a capability").
import type { FormloomPlugin } from './plugins/plugin';
import { accountsArea } from './accounts';
import { formsArea } from './forms';
import { responsesArea } from './responses';
import { webhooksArea } from './webhooks';
import { teamsArea } from './teams';
import { outboxArea } from './outbox';
import { signingArea } from './signing';
import { voiceArea } from './voice';
import { sessionsArea } from './sessions';
import { notificationsArea } from './notifications';
import { paymentsArea } from './payments';
import { integrationsArea } from './integrations';
import { bookingArea } from './booking';
import { stepsArea } from './steps';

export * from './accounts';
export * from './forms';
export * from './responses';
export * from './webhooks';
export * from './teams';
export * from './outbox';
export * from './signing';
export * from './voice';
export * from './sessions';
export * from './notifications';
export * from './payments';
export * from './integrations';
export * from './booking';
export * from './steps';

/** The built-in areas in wiring order; each is a plugin of the same interface third parties use. */
export const BUILT_IN_AREAS: readonly FormloomPlugin[] = [accountsArea, formsArea, responsesArea, webhooksArea, teamsArea, signingArea, outboxArea, voiceArea, sessionsArea, notificationsArea, paymentsArea, integrationsArea, bookingArea, stepsArea];
