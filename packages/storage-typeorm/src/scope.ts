import type { Db } from './sql/db';
import type { Dialect } from './sql/dialect';
import { accountStatements } from './repositories/accounts';
import { auditLogStatements } from './repositories/audit-logs';
import { brandingStatements } from './repositories/branding';
import { creditStatements } from './repositories/credits';
import { formStatements } from './repositories/forms';
import { formContentStatements } from './repositories/form-content';
import { idempotencyStatements } from './repositories/idempotency';
import { invitationStatements } from './repositories/invitations';
import { outboxStatements } from './repositories/outbox';
import { rateLimitStatements } from './repositories/rate-limits';
import { responseStatements } from './repositories/responses';
import { teamStatements } from './repositories/teams';
import { uploadStatements } from './repositories/uploads';
import { webhookStatements } from './repositories/webhooks';

/** The SQL that does not depend on a call's arguments, built once per storage. */
export const buildStatements = (d: Dialect) => ({
  accounts: accountStatements(d),
  auditLogs: auditLogStatements(d),
  branding: brandingStatements(d),
  credits: creditStatements(d),
  forms: formStatements(d),
  formContent: formContentStatements(d),
  idempotency: idempotencyStatements(d),
  invitations: invitationStatements(d),
  outbox: outboxStatements(d),
  rateLimits: rateLimitStatements(d),
  responses: responseStatements(d),
  teams: teamStatements(d),
  uploads: uploadStatements(d),
  webhooks: webhookStatements(d),
});

export type Statements = ReturnType<typeof buildStatements>;

/** What a repository runs on: the root storage or one transaction. */
export interface Scope {
  readonly db: Db;
  readonly d: Dialect;
  readonly st: Statements;
  /** Runs `work` in a transaction: a new one from the root, the current one inside a transaction. */
  atomic<T>(work: (db: Db) => Promise<T>): Promise<T>;
}
