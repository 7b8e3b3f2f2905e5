/** Makes ids and secrets. */
export interface IdGenerator {
  /** An opaque id `<prefix>_<random>`, unique with overwhelming probability (e.g. `frm_...`). */
  id(prefix: string): string;
  /** `bytes` random bytes as lower-case hex, for secrets and tokens. */
  secret(bytes: number): string;
}
