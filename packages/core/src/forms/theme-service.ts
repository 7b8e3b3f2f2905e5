import { inject, injectable } from 'tsyringe';
import { found, notFound } from '../errors';
import type { Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { authorizeForm } from './form-access';
import { themeInputSchema } from './form-schemas';
import { parseBody } from '../parse';
import { presentTheme } from './presenters';
import { TOKENS } from '../tokens';
import { applyOptions } from './form-model';
import { stableJson } from './changelog';

/** GET/PUT /forms/:id/theme. */
@injectable()
export class ThemeService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async get(principal: Principal, formId: string) {
    return presentTheme(await authorizeForm(this.storage, principal, formId, 'read'));
  }

  /** Applies any subset of theme fields; a change to a published form is a draft change. */
  async update(principal: Principal, formId: string, body: unknown) {
    await authorizeForm(this.storage, principal, formId, 'edit');
    const input = parseBody(themeInputSchema, body, ['form_id']);
    return this.storage.transaction(async (tx) => {
      const form = await tx.forms.findById(formId);
      if (!form) throw notFound('Form');
      const next = applyOptions(form, input);
      if (stableJson(presentTheme({ ...form, ...next })) === stableJson(presentTheme(form))) return presentTheme(form);
      const saved = await tx.forms.update(formId, {
        ...next,
        has_unpublished_changes: form.published || form.has_unpublished_changes,
        updated_at: this.clock.now().toISOString(),
      });
      return presentTheme(found(saved, 'Form'));
    });
  }
}
