/** What one read of the cache revision gives (docs/decisions.md, "Caches checked against a revision"). */
export interface CacheRevisionRead {
  /**
   * A number every instance sharing the database sees, which changes with every committed change to what
   * the instances keep in memory: forms (all but their response counts), questions, API keys and team
   * memberships. Equal numbers from two reads mean none of that changed between them.
   */
  revision: number;
  /** The current `response_count` of each of the asked forms that exists. */
  responseCounts: Map<string, number>;
}

/**
 * The revision caches are checked against. Adapters keep it in the database itself (a counter that the
 * database bumps in the same transaction as the change, whoever made it: another instance, the CLI, a
 * host's own SQL), so a change is visible to the very next read on every instance.
 */
export interface CacheRevisionRepository {
  /** The revision and the response counts of `formIds`, read together in one round trip. */
  read(formIds: readonly string[]): Promise<CacheRevisionRead>;
}
