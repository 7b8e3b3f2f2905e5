import { z } from 'zod';
import { languageSettingsOutShape, languageSettingsShape } from '../translations/translation-settings';

/*
 * Form settings of the respondent's page (docs/respondents.md "Languages", "Spam protection"): the page's
 * language, the owner's own words for it, and the spam protection its submissions need. Kept in their own
 * file so the form schemas name them in one line each.
 */

/** A BCP 47 language tag such as `fr` or `pt-BR`; null: the respondent's browser's language. */
export const languageTag = z
  .string()
  .regex(/^[a-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/, 'a language tag such as "fr" or "pt-BR"');

/** The owner's words over the page's own, by key (docs/respondents.md lists the keys). */
export const pageStrings = z
  .record(z.string().regex(/^[a-z][a-z0-9_]{0,39}$/, 'a key such as "submit"'), z.string().max(500))
  .refine((o) => Object.keys(o).length <= 120, 'at most 120 strings');

/** Which checks a submission must pass: a field people never see, and a proof of work the page solves. */
export const spamProtection = z
  .object({
    honeypot: z.boolean().optional(),
    proof_of_work: z.boolean().optional(),
  })
  .strict();

/** The settings' input shape, spread into the create and update schemas. */
export const respondentSettingsShape = {
  language: languageTag.nullable().optional(),
  strings: pageStrings.nullable().optional(),
  spam_protection: spamProtection.nullable().optional(),
  ...languageSettingsShape,
};

/** The settings as a form answer carries them. */
export const respondentSettingsOutShape = {
  language: z.string().nullable(),
  strings: z.record(z.string(), z.string()).nullable(),
  spam_protection: z.object({ honeypot: z.boolean().optional(), proof_of_work: z.boolean().optional() }).nullable(),
  ...languageSettingsOutShape,
};

export type SpamProtection = z.output<typeof spamProtection>;
