import { inject, injectable } from 'tsyringe';
import { badRequest } from '../errors';
import type { Principal, Team } from '../domain/types';
import type { Storage } from '../ports/storage';
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
  constructor(@inject(TOKENS.Storage) private readonly storage: Storage) {}

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
        : await this.storage.forms.list({ ownerId: principal.user_id, teamIds, search, teamId, published, offset, limit: per_page });
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
}
