import { inject, injectable } from 'tsyringe';
import { badRequest, conflict, found, notFound } from '../errors';
import type { Translator } from '../ports/translator';
import { assertTranslatorFor } from '../translations/translation-settings';
import { fillMissingTranslations, wantsAutoTranslate, withFills, type TranslationFill } from '../translations/auto-translate';
import { translatableTexts } from '../translations/translatable-texts';
import { defaultOptions, FORM_READ_ONLY_FIELDS } from '../domain/form-fields';
import type { FormRecord, Principal, Question } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { Plans } from '../ports/plans';
import type { Storage } from '../ports/storage';
import { assertFormAccess, authorizeForm, authorizeTeamFormCreation } from './form-access';
import { ReadCaches } from '../cache/read-caches';
import { stableJson } from './changelog';
import { createFormSchema, updateFormSchema, type UpdateFormInput } from './form-schemas';
import { parseBody } from '../parse';
import { presentForm, presentVersion } from './presenters';
import { TOKENS } from '../tokens';
import type { FormloomEvents } from '../events';
import { applyOptions, buildQuestions, linkLogic, logicProblem, snapshotOf } from './form-model';
import { renameFormRecalls } from './recall-checks';
import { PublishingService, publishConflict } from './publishing-service';
import { AuditService } from '../teams/audit-service';
import { newOutboxItem } from '../outbox/outbox-worker';
import type { SignedDocumentRenderer } from '../ports/signed-documents';
import { assertContractsRenderable } from '../signing/contract-glyphs';
import type { SecretBox } from '../crypto-box';
import { sealDataSecrets } from '../steps/data-secrets';

/** Creating, reading, updating, deleting and duplicating forms with their questions. */
@injectable()
export class FormService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(PublishingService) private readonly publishing: PublishingService,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(TOKENS.SignedDocuments) private readonly signedDocuments: SignedDocumentRenderer,
    @inject(ReadCaches) private readonly caches: ReadCaches,
    @inject(TOKENS.SecretBox) private readonly box: SecretBox,
    @inject(TOKENS.Translator) private readonly translator: Translator,
  ) {}

  /** POST /forms: 201 body. A failed publish check leaves a draft with `publish_error`. */
  async create(principal: Principal, body: unknown) {
    const input = parseBody(createFormSchema, body, FORM_READ_ONLY_FIELDS);
    await assertContractsRenderable(this.signedDocuments, input.questions);
    const teamId = input.team_id ?? null;
    const team = teamId ? await authorizeTeamFormCreation(this.storage, principal, teamId) : null;
    const features = await this.plans.featuresFor(team?.owner_id ?? principal.user_id);
    const now = this.clock.now().toISOString();
    const { theme_color, background_color, ...options } = defaultOptions();
    const cols = applyOptions({ theme_color: theme_color as string, background_color: background_color as string, options }, input);
    if (!features.auto_translate) cols.options.auto_translate = false;
    else assertTranslatorFor(input, this.translator, cols.options);
    const linked = linkLogic(input.questions ?? [], sealDataSecrets(buildQuestions(input.questions ?? [], this.ids), [], this.box), cols.options.start_logic_jumps);
    if (cols.options.start_logic_jumps !== undefined) cols.options.start_logic_jumps = linked.startJumps;
    cols.options = renameFormRecalls(cols.options, linked.ids);
    assertLogic(cols.options, linked.questions);
    const form: FormRecord = {
      id: this.ids.id('frm'),
      owner_id: principal.user_id,
      team_id: teamId,
      slug: this.ids.secret(5),
      title: input.title,
      description: input.description ?? null,
      published: false,
      has_unpublished_changes: false,
      published_version_id: null,
      response_count: 0,
      ...cols,
      created_at: now,
      updated_at: now,
    };
    const questions = linked.questions;
    // auto_translate on a form created published: the translator is called before the transaction (docs/languages.md).
    if (input.published && features.auto_translate && wantsAutoTranslate(form.options)) {
      form.options = withFills(form.options, await fillMissingTranslations(this.translator, snapshotOf(form, questions) as Record<string, unknown>, questions));
    }
    const result = await this.storage.transaction(async (tx) => {
      await tx.forms.insert(form);
      await tx.questions.replaceForForm(form.id, questions);
      if (teamId) await this.audit.record(tx, teamId, 'form.created', principal, { form_id: form.id, title: form.title });
      if (!input.published) return { form, version: null, block: null };
      const outcome = await this.publishing.publishInTx(tx, form, questions, principal, features);
      return outcome.ok
        ? { form: outcome.form, version: outcome.version, block: null }
        : { form, version: null, block: outcome.block };
    });
    this.events.emit('form.created', { form_id: form.id, user_id: principal.user_id });
    const out: Record<string, unknown> = presentForm(result.form, questions);
    if (result.version) {
      out.version = presentVersion(result.version);
      this.events.emit('form.published', { form_id: form.id, version: result.version.version, user_id: principal.user_id });
    }
    if (result.block) {
      const { reason, message, question_ids, upgrade_required, composite_ids } = result.block;
      out.publish_error = { reason, message, question_ids, upgrade_required, ...(composite_ids ? { composite_ids } : {}) };
    }
    return out;
  }

  /**
   * GET /forms/:id. The form, its questions and the caller's membership come from memory while the cache
   * revision holds; the response count is read with the revision (docs/decisions.md).
   */
  async get(principal: Principal, formId: string) {
    const read = await this.caches.gate.check(formId);
    const count = read.responseCounts.get(formId);
    if (count === undefined) throw notFound('Form');
    // One presentation per cached revision: reads differ only in the count (docs/benchmarks.md, "The cached read").
    // A kept form is taken without a promise or a loader made for nothing (docs/benchmarks.md, "CPU per cached GET").
    const value =
      this.caches.forms.at(formId, read.revision) ??
      (
        await this.caches.forms.get(formId, read.revision, async () => {
          const form = await this.storage.forms.findById(formId);
          if (!form) return null;
          const presented = presentForm({ ...form, response_count: 0 }, await this.storage.questions.listByForm(formId));
          return { owner_id: form.owner_id, team_id: form.team_id, presented };
        })
      ).value;
    if (!value) throw notFound('Form');
    // The owner's own form (no team) needs no membership: the check is then only the owner's id.
    if (value.team_id || value.owner_id !== principal.user_id) {
      await assertFormAccess(value, principal, 'read', async (teamId, userId) => {
        const member = await this.caches.members.get(`${teamId}\u0000${userId}`, read.revision, async () => (await this.storage.teams.findMember(teamId, userId)) ?? false);
        return member.value || null;
      });
    }
    return { ...value.presented, response_count: count };
  }

  /**
   * PUT /forms/:id. Changes are saved first; `published` then publishes or unpublishes. A blocked
   * publish keeps the saved changes and answers 409 with `form_id` and `saved_as_draft`.
   */
  async update(principal: Principal, formId: string, body: unknown) {
    const current = await authorizeForm(this.storage, principal, formId, 'edit');
    const input = parseBody(updateFormSchema, body, FORM_READ_ONLY_FIELDS);
    await assertContractsRenderable(this.signedDocuments, input.questions);
    if (input.team_id !== undefined && input.team_id !== current.team_id) {
      throw badRequest('team_id: a form cannot be moved to another team', { field: 'team_id' });
    }
    const wantsPublishChange = input.published !== undefined && input.published !== current.published;
    if (wantsPublishChange) await authorizeForm(this.storage, principal, formId, 'publish');
    const features = await this.publishing.featuresOf(current);
    // auto_translate when this save publishes: the translator is called before the transaction, on the state the
    // save will make; new questions' texts get their ids only inside it, so they stay missing (a publish warning).
    let fill: TranslationFill | null = null;
    if (input.published === true && !current.published && features.auto_translate) {
      const preview = this.applyUpdate(current, await this.storage.questions.listByForm(formId), input, true);
      if (wantsAutoTranslate(preview.form.options)) fill = await fillMissingTranslations(this.translator, snapshotOf(preview.form, preview.questions) as Record<string, unknown>, preview.questions);
    }

    const outcome = await this.storage.transaction(async (tx) => {
      const before = await tx.forms.findById(formId);
      if (!before) throw notFound('Form');
      const beforeQuestions = await tx.questions.listByForm(formId);
      const { form, questions } = this.applyUpdate(before, beforeQuestions, input, features.auto_translate);
      if (fill) {
        const state = snapshotOf(form, questions) as Record<string, unknown>;
        form.options = withFills(form.options, fill, new Set(translatableTexts(state, questions).map((t) => t.path)));
      }
      const changed =
        stableJson(snapshotOf(before, beforeQuestions)) !== stableJson(snapshotOf(form, questions));
      let saved = before;
      if (changed) {
        // A published form's draft is "changed" only while it differs from the live version: an edit undone by
        // hand (or by undo) leaves nothing unpublished, as the Publish tab's diff says (issue 36).
        const live = before.published && before.published_version_id ? await tx.versions.findById(before.published_version_id) : null;
        const unpublished = live ? stableJson(live.snapshot) !== stableJson(snapshotOf(form, questions)) : before.published || before.has_unpublished_changes;
        saved = found(await tx.forms.update(formId, {
          title: form.title,
          description: form.description,
          theme_color: form.theme_color,
          background_color: form.background_color,
          options: form.options,
          has_unpublished_changes: unpublished,
          updated_at: this.clock.now().toISOString(),
        }), 'Form');
        if (input.questions) await tx.questions.replaceForForm(formId, questions);
        if (before.team_id && (before.options.webhook_url ?? null) !== (form.options.webhook_url ?? null)) {
          await this.audit.record(tx, before.team_id, 'webhooks.changed', principal, { form_id: formId, webhook_url: form.options.webhook_url ?? null });
        }
      }
      if (input.published === true && !before.published) {
        const published = await this.publishing.publishInTx(tx, saved, questions, principal, features);
        if (!published.ok) return { block: published.block, form: saved, questions };
        return { form: published.form, questions, version: published.version };
      }
      if (input.published === false && before.published) {
        return { form: await this.publishing.unpublishInTx(tx, formId, principal), questions };
      }
      return { form: saved, questions };
    });
    if ('block' in outcome && outcome.block) {
      throw publishConflict(outcome.block, { form_id: formId, saved_as_draft: true });
    }
    if ('version' in outcome && outcome.version) {
      this.events.emit('form.published', { form_id: formId, version: outcome.version.version, user_id: principal.user_id });
    }
    return presentForm(outcome.form, outcome.questions);
  }

  private applyUpdate(before: FormRecord, beforeQuestions: Question[], input: UpdateFormInput, autoTranslate: boolean) {
    const cols = applyOptions(before, input);
    if (!autoTranslate) cols.options.auto_translate = false;
    else assertTranslatorFor(input, this.translator, cols.options);
    const form: FormRecord = {
      ...before,
      title: input.title ?? before.title,
      description: input.description !== undefined ? input.description : before.description,
      ...cols,
    };
    let questions = beforeQuestions;
    if (input.questions) {
      const built = buildQuestions(input.questions, this.ids, new Set(beforeQuestions.map((q) => q.id)));
      const linked = linkLogic(input.questions, sealDataSecrets(built, beforeQuestions, this.box), form.options.start_logic_jumps);
      questions = linked.questions;
      if (form.options.start_logic_jumps !== undefined) form.options = { ...form.options, start_logic_jumps: linked.startJumps };
      form.options = renameFormRecalls(form.options, linked.ids);
    }
    // Only a change of the logic is checked, so that a form saved before these rules stays editable.
    if (input.questions || input.start_logic_jumps !== undefined || input.variables !== undefined) assertLogic(form.options, questions);
    return { form, questions };
  }

  /** DELETE /forms/:id; signed-contract protection (rule 2) applies once contracts exist. */
  async delete(principal: Principal, formId: string, query: { delete_signed_contracts?: unknown } = {}) {
    const flag = query.delete_signed_contracts;
    if (flag !== undefined && flag !== 'true' && flag !== 'false' && typeof flag !== 'boolean') {
      throw badRequest('delete_signed_contracts: must be true or false', { field: 'delete_signed_contracts' });
    }
    const form = await authorizeForm(this.storage, principal, formId, 'delete');
    const deleteSigned = flag === true || flag === 'true';
    const deleted = await this.storage.transaction(async (tx) => {
      // Completed contracts are evidence: deleting them takes an explicit flag (docs/signing.md).
      const signed = await tx.signing.countSessionsOfForm(formId, ['completing', 'completed']);
      if (signed > 0 && !deleteSigned) {
        throw conflict(`The form has ${signed} signed contract(s); pass delete_signed_contracts=true to delete them too`, {
          reason: 'form_has_signed_contracts',
          signed_contracts: signed,
        });
      }
      // Sessions, their PDFs and audit trails go with the form (foreign keys cascade).
      if (!(await tx.forms.delete(formId))) return false;
      if (form.team_id) await this.audit.record(tx, form.team_id, 'form.deleted', principal, { form_id: formId, title: form.title });
      // Uploads live outside the database: removed after the commit by the outbox worker, never lost.
      await tx.outbox.enqueue(newOutboxItem(this.ids, this.clock.now().toISOString(), 'uploads_cleanup', { form_id: formId }));
      return true;
    });
    if (!deleted) throw notFound('Form');
    this.events.emit('form.deleted', { form_id: formId });
    this.events.emit('outbox.enqueued', { kind: 'uploads_cleanup' });
    return { success: true };
  }

  /** POST /forms/:id/duplicate: a new draft "Copy of <title>" with copies of the questions. */
  async duplicate(principal: Principal, formId: string) {
    const source = await authorizeForm(this.storage, principal, formId, 'read');
    if (source.team_id) await authorizeTeamFormCreation(this.storage, principal, source.team_id);
    const questions = await this.storage.questions.listByForm(formId);
    const now = this.clock.now().toISOString();
    const copy: FormRecord = {
      ...source,
      id: this.ids.id('frm'),
      owner_id: principal.user_id,
      slug: this.ids.secret(5),
      title: `Copy of ${source.title}`.slice(0, 500),
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
    const copies = linked.questions;
    if (source.options.start_logic_jumps !== undefined) copy.options.start_logic_jumps = linked.startJumps;
    copy.options = renameFormRecalls(copy.options, linked.ids);
    await this.storage.transaction(async (tx) => {
      await tx.forms.insert(copy);
      await tx.questions.replaceForForm(copy.id, copies);
    });
    this.events.emit('form.created', { form_id: copy.id, user_id: principal.user_id });
    return presentForm(copy, copies);
  }
}

function assertLogic(options: Record<string, unknown>, questions: Question[]): void {
  const p = logicProblem(options, questions);
  if (p) throw badRequest(`${p.field}: ${p.message}`, { field: p.field });
}
