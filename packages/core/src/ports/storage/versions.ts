import type { Version } from '../../domain/types';

/** Published versions of a form: immutable snapshots, numbered from 1 per form. */
export interface VersionRepository {
  /**
   * Inserts a version.
   * @throws `FormloomError` CONFLICT when the id is taken or the form already has this `version` number;
   * nothing is written. Of concurrent publications with the same number exactly one is stored.
   */
  insert(version: Version): Promise<void>;
  /** The form's versions, highest `version` first; `[]` when it was never published. */
  listByForm(formId: string): Promise<Version[]>;
  /** The version, or `null` when there is none. */
  findById(id: string): Promise<Version | null>;
  /** The form's highest version, or `null` when it was never published. */
  latest(formId: string): Promise<Version | null>;
}
