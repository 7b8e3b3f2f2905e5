/** Makes ids and secrets. */
export interface IdGenerator {
  /** An opaque id `<prefix>_<random>`, unique with overwhelming probability (e.g. `frm_...`). */
  id(prefix: string): string;
  /**
   * An id like `id`'s whose later ids sort after earlier ones (a clock first, then random characters), for rows
   * written many a second (responses, outbox items, webhook deliveries): their primary-key indexes then grow at
   * one end instead of taking writes all over (docs/decisions.md, "Ids"). Optional: without it, `id`.
   */
  orderedId?(prefix: string): string;
  /** `bytes` random bytes as lower-case hex, for secrets and tokens. */
  secret(bytes: number): string;
}

/** `ids.orderedId(prefix)` where the generator has it, else `ids.id(prefix)` (a host's own generator may not). */
export const orderedId = (ids: IdGenerator, prefix: string): string => (ids.orderedId ? ids.orderedId(prefix) : ids.id(prefix));
