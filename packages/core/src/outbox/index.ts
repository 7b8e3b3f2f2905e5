import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { MailHandler } from './mail-handler';
import { OutboxWorker } from './outbox-worker';

export * from './retry';
export * from './outbox-worker';
export * from './mail-handler';

/** The durable outbox: its worker and the mail handler. */
export const outboxArea = definePlugin({
  name: 'outbox',
  version: CORE_VERSION,
  services: [MailHandler, OutboxWorker],
  outboxHandlers: (ctx) => [ctx.service(MailHandler)],
});
