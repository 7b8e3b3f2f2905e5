import { FormloomInitial1732000000000 } from './1732000000000-initial';
import { FormloomResponsesWebhooks1733000000000 } from './1733000000000-responses-webhooks';
import { FormloomTeamAdministration1734000000000 } from './1734000000000-team-administration';
import { FormloomFormListIndexes1735000000000 } from './1735000000000-form-list-indexes';
import { FormloomUploadsOutboxRetention1736000000000 } from './1736000000000-uploads-outbox-retention';
import { FormloomRateLimits1736500000000 } from './1736500000000-rate-limits';

/** Formloom's migrations in order, for a host that builds its own DataSource (add them to `migrations`). */
export const formloomMigrations = [
  FormloomInitial1732000000000,
  FormloomResponsesWebhooks1733000000000,
  FormloomTeamAdministration1734000000000,
  FormloomFormListIndexes1735000000000,
  FormloomUploadsOutboxRetention1736000000000,
  FormloomRateLimits1736500000000,
];
