import type { RouteSpec } from '../route-table';
import { formRoutes } from './forms';
import { publishingRoutes } from './publishing';
import { responseRoutes } from './responses';
import { uploadRoutes } from './uploads';
import { webhookRoutes } from './webhooks';
import { teamRoutes } from './teams';
import { versionRestoreRoutes } from './version-restore';
import { formSlugRoutes } from './form-slug';
import { formMoveRoutes } from './form-move';
import { formLogoRoutes } from './form-logos';
import { invitationViewRoutes } from './invitation-view';
import { withFormEtags } from '../form-etag';
import { spamRoutes } from './spam';
import { respondentRoutes } from './respondents';

/**
 * The Express route groups of the built-in areas of @formloom/core, by area name. The router serves the
 * groups of the areas an instance has, in the instance's order. An area added later contributes its
 * endpoints as framework-neutral plugin routes instead and needs no line here (docs/architecture.md).
 */
export const AREA_ROUTES: Readonly<Record<string, readonly RouteSpec[]>> = {
  forms: withFormEtags([...formRoutes, ...publishingRoutes, ...versionRestoreRoutes, ...formSlugRoutes, ...formMoveRoutes, ...formLogoRoutes]),
  responses: [...responseRoutes, ...uploadRoutes, ...spamRoutes, ...respondentRoutes],
  webhooks: webhookRoutes,
  teams: [...teamRoutes, ...invitationViewRoutes],
};
