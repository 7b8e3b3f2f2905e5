import { inject, injectable } from 'tsyringe';
import type { ApiKey, FormRecord, TeamMember, Version } from '../domain/types';
import type { IntegrationRecord, Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { IdleSweep } from './idle-sweep';
import { RevisionCache } from './revision-cache';
import { RevisionGate } from './revision-gate';

/** How many of each kind an instance keeps (a few MB at most: forms of 10 questions take about 10 kB). */
const MAX_KEYS = 10_000;
const MAX_FORMS = 2_000;
const MAX_MEMBERS = 10_000;

/** A form as `GET /forms/:id` presents it (count 0), and what its access is checked with. */
export interface PresentedForm extends Pick<FormRecord, 'owner_id' | 'team_id'> {
  presented: Record<string, unknown>;
}

/**
 * What an instance keeps in memory of what rarely changes, each checked against the cache revision at
 * every use (docs/decisions.md, "Caches checked against a revision"). One per instance (container scoped).
 */
@injectable()
export class ReadCaches {
  readonly gate: RevisionGate;
  /** One clock for every cache of the instance: a value unused for a minute or two goes (idle-sweep.ts). */
  private readonly idle = new IdleSweep();
  /** API keys by key id, as stored (the secret is still verified against the hash at every request). */
  readonly keys = new RevisionCache<string, ApiKey>(MAX_KEYS, this.idle);
  /**
   * Forms as `GET /forms/:id` presents them, by form id, with whose they are (the response count is read
   * fresh with the revision). Only the presentation is kept, not the records it was made of: they would
   * double what each kept form holds (docs/benchmarks.md, "Where the memory goes").
   */
  readonly forms = new RevisionCache<string, PresentedForm>(MAX_FORMS, this.idle);
  /** Published forms with their published version, by slug. */
  readonly published = new RevisionCache<string, { form: FormRecord; version: Version }>(MAX_FORMS, this.idle);
  /** Team memberships by `team id + user id`; `false` for none. */
  readonly members = new RevisionCache<string, TeamMember | false>(MAX_MEMBERS, this.idle);
  /** A completed response's webhook targets by form id (webhook-dispatcher.ts), with a stored-plan provider only. */
  readonly targets = new RevisionCache<string, Array<{ url: string; user_id: string }>>(MAX_FORMS, this.idle);
  /** A form's integrations by form id, for a completed submission's deliveries (integrations/integration-deliveries.ts). */
  readonly integrations = new RevisionCache<string, IntegrationRecord[]>(MAX_FORMS, this.idle);
  /**
   * How many forms a forms list's filters match (forms/form-list-service.ts), by its filters (searches are
   * not kept): a deep page is placed from the end without counting first, and no page counts an owner's
   * forms again.
   */
  readonly formTotals = new RevisionCache<string, number>(MAX_KEYS, this.idle);

  constructor(@inject(TOKENS.Storage) storage: Storage) {
    this.gate = new RevisionGate(storage);
  }

  /**
   * The published form of `slug` with its current response count, or `null` when there is none: from
   * memory while the revision holds, else from storage. `revision` is the one it was checked against, read
   * after the call began: what else the request keeps under it is as current as the form.
   */
  async publishedForm(storage: Storage, slug: string): Promise<{ form: FormRecord; version: Version; revision: number } | null> {
    const load = async () => {
      const form = await storage.forms.findBySlug(slug);
      if (!form || !form.published || !form.published_version_id) return null;
      const version = await storage.versions.findById(form.published_version_id);
      return version ? { form, version } : null;
    };
    const hint = this.published.peek(slug)?.form.id;
    const read = await this.gate.check(hint);
    const { value, fresh } = await this.published.get(slug, read.revision, load);
    const { revision } = read;
    if (!value) return null;
    if (fresh) return { ...value, revision };
    // A kept form is current but for its count, read with the revision. Without one (the form was kept by
    // a concurrent request after this one asked), it is read again.
    const count = read.responseCounts.get(value.form.id);
    if (count !== undefined) return { form: { ...value.form, response_count: count }, version: value.version, revision };
    const again = await load();
    return again && { ...again, revision };
  }
}
