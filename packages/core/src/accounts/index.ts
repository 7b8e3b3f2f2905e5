import { definePlugin } from '../plugins/plugin';
import { CORE_VERSION } from '../version';
import { AccountService } from './account-service';

export * from './plan-features';
export * from './plans';
export * from './account-service';

/** Users, API keys, plans and credits. */
export const accountsArea = definePlugin({
  name: 'accounts',
  version: CORE_VERSION,
  services: [AccountService],
});
