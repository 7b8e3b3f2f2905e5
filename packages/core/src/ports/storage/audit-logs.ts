import type { AuditEvent } from '../../domain/types';
import type { Page } from './page';

/** What `AuditLogRepository.list` returns. */
export interface AuditQuery {
  teamId: string;
  /** Only events with this action. */
  action?: string;
  /** Only events by this user. */
  userId?: string;
  /** Inclusive bounds on `timestamp` (ISO strings). */
  since?: string;
  until?: string;
  offset: number;
  limit: number;
}

/**
 * The team audit log: append-only. Events do not depend on the team row (those of a deleted team stay, and
 * an event may name a team that never had a row).
 */
export interface AuditLogRepository {
  /**
   * Appends an event.
   * @throws `FormloomError` CONFLICT when the id is taken; nothing is written.
   */
  insert(event: AuditEvent): Promise<void>;
  /** Newest `timestamp` first (ties by id descending), with the total before paging. */
  list(query: AuditQuery): Promise<Page<AuditEvent>>;
}
