import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { found } from '../errors';
import type { FormRecord, Principal, Team } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import type { FormloomEvents } from '../events';
import { parseBody } from '../parse';
import { AuditService } from '../teams/audit-service';
import { authorizeForm, authorizeTeamFormCreation } from './form-access';
import { linkLogic } from './form-model';
import { renameFormRecalls } from './recall-checks';
import { presentForm } from './presenters';

/** The body of `POST /forms/:id/move` and `POST /forms/:id/copy`: where the form goes. */
export const formPlaceSchema = z
  .object({
    team_id: z
      .string()
      .min(1)
      .max(100)
      .nullable()
      .describe("The team the form goes into (the caller needs the `create_forms` permission there, i.e. owner, admin or editor), or null for the caller's own forms"),
  })
  .strict();

/**
 * Moving and copying a form between the caller's own forms and their teams (docs/decisions.md, Teams,
 * "Moving and copying forms"; not in the original API, which fixes a form's team at creation). Both places are
 * checked: the form's current place as for deleting it (a team loses the form: owner or admin; a personal
 * form: its owner), for a copy as for reading it; the target as for creating a form there. Each team
 * involved gets an entry in its audit log, in the same transaction as the change.
 */
@injectable()
export class FormMoveService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(AuditService) private readonly audit: AuditService,
  ) {}

  /** The target team (checked: the caller may create forms in it), or null for the caller's own forms. */
  private async target(principal: Principal, teamId: string | null): Promise<Team | null> {
    return teamId === null ? null : authorizeTeamFormCreation(this.storage, principal, teamId);
  }

  private async teamOf(teamId: string | null): Promise<Team | null> {
    return teamId ? this.storage.teams.findById(teamId) : null;
  }

  /**
   * `POST /forms/:id/move`: the same form (id, address, responses, versions) in another place. Into the
   * caller's own forms it becomes theirs. Already there: the form, unchanged, and no audit entry.
   */
  async move(principal: Principal, formId: string, body: unknown) {
    const { team_id } = parseBody(formPlaceSchema, body);
    const source = await authorizeForm(this.storage, principal, formId, 'delete');
    const to = await this.target(principal, team_id);
    const from = await this.teamOf(source.team_id);
    const ownerId = to ? source.owner_id : principal.user_id;
    if (source.team_id !== team_id || source.owner_id !== ownerId) {
      await this.storage.transaction(async (tx) => {
        found(await tx.forms.update(formId, { team_id, owner_id: ownerId, updated_at: this.clock.now().toISOString() }), 'Form');
        const facts = { form_id: formId, title: source.title };
        if (from) await this.audit.record(tx, from.id, 'form.moved_out', principal, { ...facts, to_team_id: to?.id ?? null, to_team_name: to?.name ?? null });
        if (to && to.id !== from?.id) await this.audit.record(tx, to.id, 'form.moved_in', principal, { ...facts, from_team_id: from?.id ?? null, from_team_name: from?.name ?? null });
      });
    }
    const form = found(await this.storage.forms.findById(formId), 'Form');
    return presentForm(form, await this.storage.questions.listByForm(formId));
  }

  /**
   * `POST /forms/:id/copy`: a new draft with copies of the questions (as duplicating does: logic and recalls
   * follow the new question ids; no responses, no versions), in the given place, owned by the caller.
   */
  async copy(principal: Principal, formId: string, body: unknown) {
    const { team_id } = parseBody(formPlaceSchema, body);
    const source = await authorizeForm(this.storage, principal, formId, 'read');
    const to = await this.target(principal, team_id);
    const from = await this.teamOf(source.team_id);
    const questions = await this.storage.questions.listByForm(formId);
    const now = this.clock.now().toISOString();
    const copy: FormRecord = {
      ...source,
      id: this.ids.id('frm'),
      owner_id: principal.user_id,
      team_id,
      slug: this.ids.secret(5),
      // A copy beside its source is told apart by its title; one in another place keeps the title.
      title: (source.team_id === team_id ? `Copy of ${source.title}` : source.title).slice(0, 500),
      published: false,
      has_unpublished_changes: false,
      published_version_id: null,
      response_count: 0,
      options: { ...source.options },
      created_at: now,
      updated_at: now,
    };
    const fresh = questions.map((q) => ({ ...q, id: this.ids.id('q') }));
    const linked = linkLogic(questions, fresh, source.options.start_logic_jumps);
    if (source.options.start_logic_jumps !== undefined) copy.options.start_logic_jumps = linked.startJumps;
    copy.options = renameFormRecalls(copy.options, linked.ids);
    await this.storage.transaction(async (tx) => {
      await tx.forms.insert(copy);
      await tx.questions.replaceForForm(copy.id, linked.questions);
      if (from && from.id !== to?.id) await this.audit.record(tx, from.id, 'form.copied_out', principal, { form_id: source.id, title: source.title, copy_id: copy.id, to_team_id: to?.id ?? null, to_team_name: to?.name ?? null });
      if (to) await this.audit.record(tx, to.id, 'form.copied_in', principal, { form_id: copy.id, title: copy.title, source_form_id: source.id, from_team_id: from?.id ?? null, from_team_name: from?.name ?? null });
    });
    this.events.emit('form.created', { form_id: copy.id, user_id: principal.user_id });
    return presentForm(copy, linked.questions);
  }
}
