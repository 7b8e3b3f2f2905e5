import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { conflict, found, isFormloomError } from '../errors';
import type { Principal } from '../domain/types';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { parseBody } from '../parse';
import { authorizeForm } from './form-access';
import { presentForm } from './presenters';

/** Shortest and longest address a person may choose (generated ones are 10 hex characters). */
export const SLUG_MIN = 3;
export const SLUG_MAX = 64;

/**
 * Words no form may take as its address: they read as the service's own pages or would be mistaken for
 * them in a shared link (`/f/admin` looks official). Compared after lower-casing, which the pattern requires.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'admin', 'api', 'app', 'assets', 'auth', 'dashboard', 'embed', 'f', 'form', 'forms', 'help', 'login',
  'logout', 'new', 'null', 'official', 'openapi', 'public', 's', 'settings', 'signin', 'signout', 'signup',
  'static', 'support', 'system', 'teams', 'undefined', 'workspace', 'www',
]);

/** Lower-case letters and digits in words joined by single hyphens (no hyphen at either end). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The body of `PUT /forms/:id/slug`. */
export const formSlugSchema = z
  .object({
    slug: z
      .string()
      .min(SLUG_MIN, `must be at least ${SLUG_MIN} characters`)
      .max(SLUG_MAX, `must be at most ${SLUG_MAX} characters`)
      .regex(SLUG_PATTERN, 'use lower-case letters, digits and single hyphens between them (e.g. customer-feedback)')
      .refine((s) => !RESERVED_SLUGS.has(s), 'this word is reserved: choose another address')
      .describe('The new address of the form: its public page becomes `/f/<slug>`'),
  })
  .strict();

/**
 * `PUT /forms/:id/slug`: a person chooses the form's address (docs/decisions.md, Forms, "The form's
 * address"). The change is live at once (an address is not content: no draft, no new version), the old
 * address answers 404 from then on and is free for any form, and every instance sees it at its next read
 * (the forms row's trigger bumps the cache revision).
 */
@injectable()
export class FormSlugService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  /**
   * 200 with the full form; 400 for an invalid address, 409 `slug_taken` when another form has it; 403 for a
   * team role without the edit permission, or without the publish permission on a published form.
   */
  async change(principal: Principal, formId: string, body: unknown) {
    const { slug } = parseBody(formSlugSchema, body);
    // A live form's address is where respondents reach it: moving it breaks shared links as unpublishing
    // does, so it takes the publish permission (a team editor may name a draft's address only).
    const current = await authorizeForm(this.storage, principal, formId, 'edit');
    if (current.published) await authorizeForm(this.storage, principal, formId, 'publish');
    if (current.slug !== slug) {
      const holder = await this.storage.forms.findBySlug(slug);
      if (holder && holder.id !== formId) throw slugTaken(slug);
      try {
        found(await this.storage.forms.update(formId, { slug, updated_at: this.clock.now().toISOString() }), 'Form');
      } catch (e) {
        // Taken between the look-up and the write (the unique index decides).
        if (isFormloomError(e) && e.code === 'CONFLICT') throw slugTaken(slug);
        throw e;
      }
    }
    const form = found(await this.storage.forms.findById(formId), 'Form');
    return presentForm(form, await this.storage.questions.listByForm(formId));
  }
}

const slugTaken = (slug: string) =>
  conflict(`The address "${slug}" is taken by another form: choose another`, { reason: 'slug_taken', field: 'slug' });
