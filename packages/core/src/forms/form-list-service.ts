import { inject, injectable } from 'tsyringe';
import { ReadCaches } from '../cache/read-caches';
import { badRequest } from '../errors';
import type { FormRecord, Principal, Team } from '../domain/types';
import type { FormListQuery, Page, Storage } from '../ports/storage';
import { paging, queryBoolean } from '../pagination';
import { presentFormListItem } from './presenters';
import { TOKENS } from '../tokens';

export interface FormListParams {
  page?: unknown;
  per_page?: unknown;
  search?: unknown;
  team_id?: unknown;
  published?: unknown;
}

/** GET /forms: the caller's personal forms and the forms of their teams. */
@injectable()
export class FormListService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(ReadCaches) private readonly caches: ReadCaches,
  ) {}

  async list(principal: Principal, params: FormListParams) {
    const { page, per_page, offset } = paging(params, 50);
    const published = queryBoolean(params.published);
    if (published instanceof Error) throw badRequest(`published: ${published.message}`, { field: 'published' });
    for (const f of ['search', 'team_id'] as const) {
      if (params[f] !== undefined && typeof params[f] !== 'string') throw badRequest(`${f}: must be a single string`, { field: f });
    }
    const search = (params.search as string | undefined)?.trim() || undefined;
    const teamId = (params.team_id as string | undefined) || undefined;
    const memberships = await this.storage.teams.membershipsOf(principal.user_id);
    const teamIds = memberships.map((m) => m.team_id);
    const { items, total } =
      teamId && !teamIds.includes(teamId)
        ? { items: [], total: 0 }
        : await this.page({ ownerId: principal.user_id, teamIds, search, teamId, published, offset, limit: per_page });
    const teams = new Map<string, Team | null>();
    for (const id of new Set(items.map((f) => f.team_id).filter((t): t is string => !!t))) {
      teams.set(id, await this.storage.teams.findById(id));
    }
    return {
      forms: items.map((f) => presentFormListItem(f, f.team_id ? (teams.get(f.team_id) ?? null) : null)),
      total,
      page,
      per_page,
    };
  }

  /**
   * A page of forms, with the total counted once per cache revision: counting an owner's 100,000 forms
   * is most of a page's cost (docs/decisions.md, "Session 15"). Every change to forms (inserts too, since
   * migration 1740600000000) and memberships bumps the revision, so a kept total is always current.
   */
  private async page(query: FormListQuery): Promise<Page<FormRecord>> {
    // A search is counted each time: its text would make the kept keys as large as a client's URLs, and
    // its page scans the owner's titles anyway, so a kept count would save little.
    if (query.search !== undefined) return this.storage.forms.list(query);
    const key = JSON.stringify([query.ownerId, [...query.teamIds].sort(), query.teamId ?? null, query.published ?? null]);
    const { revision } = await this.caches.gate.check();
    let page: Page<FormRecord> | undefined;
    const { value: total } = await this.caches.formTotals.get(key, revision, async () => {
      page = await this.storage.forms.list(query);
      return page.total;
    });
    return page ?? this.storage.forms.list(total === null ? query : { ...query, total });
  }
}
