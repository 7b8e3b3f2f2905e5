import { inject, injectable } from 'tsyringe';
import { conflict, FormloomError, found, isFormloomError, notFound } from '../errors';
import type { ChangelogEntry, FormRecord, Principal, Question, Version } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { PlanFeatures, Plans } from '../ports/plans';
import type { Payments } from '../ports/payments';
import type { Storage } from '../ports/storage';
import { computeChangelog, type Snapshot } from './changelog';
import { authorizeForm, planHolderOf } from './form-access';
import { checkPublishable, type PublishBlock } from './publish-policy';
import { presentForm, presentVersion, presentTheme } from './presenters';
import { TOKENS } from '../tokens';
import type { FormloomEvents } from '../events';
import { isClosed, snapshotOf } from './form-model';
import { publicSnapshot } from './public-view';
import { componentState, pinComponents } from './composite-components';
import { AuditService } from '../teams/audit-service';
import { RESTORED_FROM, restoredEntry } from './version-restore';
import { ReadCaches } from '../cache/read-caches';
import type { Telephony } from '../ports/telephony';
import { CALL_CREDITS_REASON, confirmationCallCredits } from '../booking/call-credits';
import { translationWarnings } from '../translations/translatable-texts';
import { fillMissingTranslations, fillWarnings, wantsAutoTranslate, withFills, type TranslationFill } from '../translations/auto-translate';
import type { Translator } from '../ports/translator';

export type PublishOutcome =
  | { ok: true; form: FormRecord; questions: Question[]; version: Version }
  | { ok: false; block: PublishBlock };

/** Publishing, unpublishing, versions and the public read of published forms. */
@injectable()
export class PublishingService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Plans) private readonly plans: Plans,
    @inject(TOKENS.Payments) private readonly payments: Payments,
    @inject(TOKENS.Telephony) private readonly telephony: Telephony,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(ReadCaches) private readonly caches: ReadCaches,
    @inject(TOKENS.Translator) private readonly translator: Translator,
  ) {}

  /** The features of the plan that governs the form. Call outside transactions: plans read storage. */
  async featuresOf(form: Pick<FormRecord, 'team_id' | 'owner_id'>): Promise<PlanFeatures> {
    return this.plans.featuresFor(await planHolderOf(this.storage, form));
  }

  /** Checks (b) and (c) of rule 3 for the form as it stands. */
  async check(form: FormRecord, questions: Question[], features: PlanFeatures, storage: Storage = this.storage): Promise<PublishBlock | null> {
    const connect = questions.some((q) => q.type === 'payment' && q.properties.provider === 'connect');
    const account = connect ? await storage.payments.accountOf(await planHolderOf(storage, form)) : null;
    const booking = questions.some((q) => q.type === 'booking');
    const calling = questions.some((q) => q.type === 'booking' && q.properties.confirmation_call === true);
    const block = await checkPublishable({
      form,
      questions,
      features,
      calendarConnected: booking && !!(await storage.bookings.connectionOf(form.owner_id)),
      telephonyConfigured: this.telephony.id !== 'none' && !!this.telephony.from,
      paymentsConfigured: !!this.payments.processor,
      connectAccountReady: !!account?.charges_enabled,
      lookupComponent: (id) => componentState(storage, form, id),
      lookupForm: async (id) => {
        const linked = await storage.forms.findById(id);
        const same_account = !!linked && (linked.team_id ? linked.team_id === form.team_id : linked.owner_id === form.owner_id);
        if (!linked || !linked.published || !linked.published_version_id) {
          return linked ? { published: false, question_count: 0, same_account } : null;
        }
        const version = await storage.versions.findById(linked.published_version_id);
        const qs = (version?.snapshot.questions as unknown[] | undefined) ?? [];
        const hasVersion = async (v: string) => (await storage.versions.findById(v))?.form_id === linked.id;
        return { published: true, question_count: qs.length, same_account, hasVersion };
      },
    });
    return block ?? (calling ? await confirmationCallCredits(storage, form, questions) : null);
  }

  /**
   * Publishes the form's current state as a new version when the checks pass. Runs in `tx` so that a
   * caller can make it atomic with its own writes.
   */
  async publishInTx(
    tx: Storage,
    form: FormRecord,
    questions: Question[],
    principal: Principal,
    features: PlanFeatures,
  ): Promise<PublishOutcome> {
    const block = await this.check(form, questions, features, tx);
    if (block) return { ok: false, block };
    const latest = await tx.versions.latest(form.id);
    const snapshot = snapshotOf(form, questions);
    // A composite's version pins its components' published versions (docs/logic.md "Composite").
    await pinComponents(tx, form, snapshot);
    const user = await tx.users.findById(principal.user_id);
    const name = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email : null;
    const now = this.clock.now().toISOString();
    const version: Version = {
      id: this.ids.id('ver'),
      form_id: form.id,
      version: (latest?.version ?? 0) + 1,
      published_by: principal.user_id,
      published_by_name: name,
      created_at: now,
      changelog: withRestore(form, !!latest, computeChangelog((latest?.snapshot as Snapshot | undefined) ?? null, snapshot)),
      snapshot,
    };
    try {
      await tx.versions.insert(version);
    } catch (e) {
      // The form deleted meanwhile: its 404, not a conflict to retry.
      if (isFormloomError(e) && e.code === 'NOT_FOUND') throw e;
      throw conflict('The form is being published by another request; try again', { reason: 'publish_in_progress' });
    }
    if (form.team_id) await this.audit.record(tx, form.team_id, 'form.published', principal, { form_id: form.id, version: version.version });
    const updated = await tx.forms.update(form.id, {
      ...(RESTORED_FROM in form.options ? { options: withoutRestoreMark(form.options) } : {}),
      published: true,
      has_unpublished_changes: false,
      published_version_id: version.id,
      updated_at: now,
    });
    return { ok: true, form: found(updated, 'Form'), questions, version };
  }

  /** POST /forms/:id/publish: 409 with the block when a check fails, else the form plus `version`. */
  async publish(principal: Principal, formId: string) {
    const features = await this.featuresOf(await authorizeForm(this.storage, principal, formId, 'publish'));
    // auto_translate: the translator is called before the transaction (docs/languages.md "auto_translate").
    const fill = await this.machineTranslations(formId, features);
    const outcome = await this.storage.transaction(async (tx) => {
      let form = await tx.forms.findById(formId);
      if (!form) throw notFound('Form');
      if (Object.keys(fill.texts).length) form = found(await tx.forms.update(formId, { options: withFills(form.options, fill) }), 'Form');
      return this.publishInTx(tx, form, await tx.questions.listByForm(formId), principal, features);
    });
    if (!outcome.ok) throw publishConflict(outcome.block);
    this.events.emit('form.published', { form_id: formId, version: outcome.version.version, user_id: principal.user_id });
    // Missing translations do not block: the page shows the default language there (docs/languages.md).
    const warnings = [...fillWarnings(fill), ...translationWarnings(outcome.version.snapshot as Record<string, unknown>, outcome.questions)];
    return { ...presentForm(outcome.form, outcome.questions), version: presentVersion(outcome.version), ...(warnings.length ? { warnings } : {}) };
  }

  /** The machine translations of the form's missing texts when it asks for them and its plan allows it. */
  private async machineTranslations(formId: string, features: PlanFeatures): Promise<TranslationFill> {
    const none: TranslationFill = { texts: {}, failed: [] };
    if (!features.auto_translate) return none;
    const form = await this.storage.forms.findById(formId);
    if (!form || !wantsAutoTranslate(form.options)) return none;
    const questions = await this.storage.questions.listByForm(formId);
    return fillMissingTranslations(this.translator, snapshotOf(form, questions) as Record<string, unknown>, questions);
  }

  /** DELETE /forms/:id/publish (and PUT with `published: false`): offline, history kept. */
  async unpublish(principal: Principal, formId: string) {
    await authorizeForm(this.storage, principal, formId, 'publish');
    return this.storage.transaction(async (tx) => {
      const form = await this.unpublishInTx(tx, formId, principal);
      return presentForm(form, await tx.questions.listByForm(formId));
    });
  }

  async unpublishInTx(tx: Storage, formId: string, principal: Principal): Promise<FormRecord> {
    const form = await tx.forms.findById(formId);
    if (!form) throw notFound('Form');
    if (!form.published) return form;
    if (form.team_id) await this.audit.record(tx, form.team_id, 'form.unpublished', principal, { form_id: formId });
    const updated = await tx.forms.update(formId, {
      published: false,
      has_unpublished_changes: false,
      published_version_id: null,
      updated_at: this.clock.now().toISOString(),
    });
    this.events.emit('form.unpublished', { form_id: formId });
    return found(updated, 'Form');
  }

  async versions(principal: Principal, formId: string) {
    await authorizeForm(this.storage, principal, formId, 'read');
    const versions = await this.storage.versions.listByForm(formId);
    return { versions: versions.map(presentVersion) };
  }

  /**
   * The latest published version of a form, by slug, for respondents; 404 when not published. Only the
   * allow-listed public view (forms/public-view.ts): never the webhook URL nor quiz scoring.
   */
  async publicForm(slug: string) {
    const found = await this.caches.publishedForm(this.storage, slug);
    if (!found) throw notFound('Form');
    const { form, version } = found;
    const snap = version.snapshot as Snapshot;
    const theme = presentTheme({
      ...form,
      theme_color: (snap.theme_color as string | null) ?? null,
      background_color: (snap.background_color as string | null) ?? null,
      options: snap,
    });
    return {
      form_id: form.id,
      slug: form.slug,
      version: version.version,
      published_at: version.created_at,
      title: snap.title,
      description: snap.description,
      theme,
      // Computed at each read: the page says a closed form is closed before anyone answers it.
      // The address is the form's current one (PUT /forms/:id/slug changes it without a new version).
      snapshot: { ...publicSnapshot(snap), slug: form.slug, closed: isClosed(snap as Record<string, unknown>, form.response_count, this.clock.now()) } as Record<string, unknown>,
    };
  }
}

/** A restored draft's changelog starts with `version_restored` (a copy's first version has nothing to restore). */
const withRestore = (form: FormRecord, hasPrevious: boolean, entries: ChangelogEntry[]) => {
  const restored = hasPrevious ? restoredEntry(form) : null;
  return restored ? [restored, ...entries] : entries;
};

function withoutRestoreMark(options: Record<string, unknown>) {
  const { [RESTORED_FROM]: _mark, ...rest } = options;
  return rest;
}

/** The 409 of a blocked publish (POST /publish). */
export function publishConflict(block: PublishBlock, extra: Record<string, unknown> = {}) {
  // The owner's voice credits cannot pay a confirmation call: 402, as a generation refused for credits is.
  if (block.reason === CALL_CREDITS_REASON) return new FormloomError('INSUFFICIENT_CREDITS', block.message, { ...block, ...extra });
  return conflict(block.message, { ...block, ...extra });
}
