import type { TeamBranding } from '../../domain/types';

/** A team's branding: at most one per team, replaced whole. */
export interface BrandingRepository {
  /** The team's branding, or `null` when none was set. */
  get(teamId: string): Promise<TeamBranding | null>;
  /**
   * Stores the whole branding (an upsert: `null` fields overwrite too). Concurrent puts for one team all
   * succeed and one of them is what stays; there is never more than one branding per team.
   * @throws when there is no such team (on PostgreSQL this also ends the surrounding transaction).
   */
  put(teamId: string, branding: TeamBranding): Promise<void>;
  /**
   * Removes it.
   * @returns `false` when there was none.
   */
  delete(teamId: string): Promise<boolean>;
}
