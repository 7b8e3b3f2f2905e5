import { inject, injectable } from 'tsyringe';
import { FORM_OPTION_FIELDS } from '../domain/form-fields';
import type { ChangelogEntry, FormRecord, Principal, Question } from '../domain/types';
import { notFound } from '../errors';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import type { Snapshot } from './changelog';
import { authorizeForm } from './form-access';
import { presentForm } from './presenters';
import { withoutPinned } from './composite-components';

/**
 * Where a restored draft came from, kept in the form's `options` until the next publish (not an option
 * field: neither presented nor part of a snapshot).
 */
export const RESTORED_FROM = 'restored_from_version';

/** Settings that configure an integration rather than the form's content: a restore keeps the current ones. */
const KEPT_ON_RESTORE = new Set<string>(['webhook_url']);

/** The entry the next publish's changelog starts with when the draft was restored (docs/decisions.md "Version restore"). */
export function restoredEntry(form: Pick<FormRecord, 'options'>): ChangelogEntry | null {
  const n = form.options[RESTORED_FROM];
  return typeof n === 'number' ? { type: 'version_restored', description: `Version ${n} restored as the draft` } : null;
}

/** `POST /forms/:id/versions/:versionId/restore`: a published version's snapshot becomes the draft. */
@injectable()
export class VersionRestoreService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /**
   * Replaces the draft (title, description, theme, settings and questions) with the version's snapshot;
   * the published version stays online, `has_unpublished_changes` becomes true, and the next publish's
   * changelog says `version_restored`. The webhook URL stays as it is. 404 for a version of another form.
   */
  async restore(principal: Principal, formId: string, versionId: string) {
    await authorizeForm(this.storage, principal, formId, 'edit');
    return this.storage.transaction(async (tx) => {
      const form = await tx.forms.findById(formId);
      const version = await tx.versions.findById(versionId);
      if (!form) throw notFound('Form');
      if (!version || version.form_id !== formId) throw notFound('Version');
      const snap = version.snapshot as Snapshot;
      const options: Record<string, unknown> = { ...form.options };
      for (const f of FORM_OPTION_FIELDS) {
        if (f === 'theme_color' || f === 'background_color' || KEPT_ON_RESTORE.has(f)) continue;
        if (snap[f] === undefined) delete options[f];
        else options[f] = snap[f];
      }
      // Restoring the version that is live makes the draft what respondents see: nothing is unpublished and
      // the next publish has no restore to tell (the builder's state and its diff then agree, issue 36).
      const isLive = form.published && form.published_version_id === version.id;
      if (isLive) delete options[RESTORED_FROM];
      else options[RESTORED_FROM] = version.version;
      // A composite's pinned components belong to the version, not to the draft (composite-components.ts).
      const questions = (snap.questions ?? []).map((q, i): Question => withoutPinned({ ...q, order: q.order ?? i }));
      const saved = await tx.forms.update(formId, {
        title: snap.title,
        description: snap.description ?? null,
        theme_color: (snap.theme_color as string | null | undefined) ?? null,
        background_color: (snap.background_color as string | null | undefined) ?? null,
        options,
        has_unpublished_changes: !isLive,
        updated_at: this.clock.now().toISOString(),
      });
      await tx.questions.replaceForForm(formId, questions);
      return presentForm(saved!, questions);
    });
  }
}
