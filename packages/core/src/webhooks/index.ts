import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { WebhookDeliveryHandler } from './webhook-delivery-handler';
import { WebhookDispatcher } from './webhook-dispatcher';
import { WebhookSettingsService } from './webhook-settings-service';

export * from './webhook-dispatcher';
export * from './webhook-settings-service';
export * from './webhook-delivery-handler';
export * from './output-schemas';

/** Form and global webhooks, their signing secret and durable deliveries. */
export const webhooksArea = definePlugin({
  name: 'webhooks',
  version: CORE_VERSION,
  services: [WebhookDispatcher, WebhookSettingsService, WebhookDeliveryHandler],
  outboxHandlers: (ctx) => [ctx.service(WebhookDeliveryHandler)],
});
