import { z } from 'zod';
import { emailAddress } from '../email-address';
import { MAX_SIGNER_SLOTS } from '../forms/question-types';
import { documentAs } from '../api-schemas';

/** The events `notify_emails` can subscribe to (docs/signing.md). */
export const NOTIFY_EVENTS = ['each_signature', 'all_complete', 'decline', 'expiry'] as const;
export const PUBLIC_STATUSES = ['active', 'fully_signed', 'declined', 'voided', 'expired'] as const;
export type PublicSessionStatus = (typeof PUBLIC_STATUSES)[number];

const name = z.string().trim().max(200).nullable().optional();

/** POST /forms/:id/signing-sessions. Bounds the spec leaves open are in docs/decisions.md ("Signing"). */
export const createSessionSchema = z
  .object({
    signers: z
      .array(
        z
          .object({ slot_number: z.number().int().min(1).max(MAX_SIGNER_SLOTS), first_name: name, last_name: name, email: emailAddress().nullable().optional() })
          .strict(),
      )
      .max(MAX_SIGNER_SLOTS)
      .optional(),
    signing_order: z.enum(['sequential', 'any']).optional(),
    expiry_days: z.number().int().min(1).max(365).default(30),
    password: z.string().min(4).max(200).optional(),
    hide_other_signers: z.boolean().default(false),
    require_email_verification: z.boolean().default(false),
    copy_mode: z.enum(['ask', 'always', 'disabled']).default('ask'),
    notify_emails: z.array(emailAddress()).max(20).default([]),
    notify_events: z.array(z.enum(NOTIFY_EVENTS)).max(4).default([]),
    send_signing_emails: z.boolean().default(false),
    custom_email_body: z.string().max(10_000).optional(),
  })
  .strict();
export type CreateSessionInput = z.infer<typeof createSessionSchema>;

export const voidSessionSchema = z.object({ reason: z.string().trim().min(1).max(1000) }).strict();

/**
 * GET /forms/:id/signing-sessions. `page` and `per_page` are never refused: `paging` clamps them as
 * document 1 section 8 says (non-numeric page 1, per_page 20; per_page within 1-100; page at least 1).
 */
export const listSessionsQuery = z.object({
  status: z.enum(PUBLIC_STATUSES).optional().describe('Only sessions in this status'),
  page: z.string().optional().catch(undefined).meta({ type: 'integer', minimum: 1, description: '1-based page (default 1; below 1 or not a number: 1)' }),
  per_page: z.string().optional().catch(undefined).meta({ type: 'integer', minimum: 1, maximum: 100, description: 'Items per page (default 20; clamped to 1-100; not a number: 20)' }),
});

export const verifyPasswordSchema = z.object({ password: z.string().max(200) }).strict();

/** A signature as documented; the PDF renderer checks the image itself (docs/signing.md, "Signatures"). */
const signatureDoc = z.discriminatedUnion('type', [
  z.object({ type: z.literal('typed'), value: z.string().min(1).max(200).describe('The name as typed') }).strict(),
  z
    .object({
      type: z.literal('drawn'),
      value: z.string().max(2_000_000).regex(/^data:image\/png;base64,/).describe('A PNG data URL from the signing pad: at most 512 KiB and 2000 pixels a side'),
    })
    .strict(),
]);

export const signSchema = z
  .object({
    signature: documentAs(z.object({ type: z.enum(['typed', 'drawn']), value: z.string().max(2_000_000) }).strict(), signatureDoc),
    first_name: name,
    last_name: name,
    email: emailAddress().optional(),
    email_code: z.string().max(20).optional(),
    send_copy: z.boolean().optional(),
    /** The signer ticked the consent to sign and receive records electronically; recorded in the audit trail. */
    esign_consent: z.literal(true).optional(),
  })
  .strict();

/** What a signer agrees to with `esign_consent` (the signer's page shows this very sentence). */
export const ESIGN_CONSENT = 'I agree to sign electronically and to receive the records electronically.';

export const declineSchema = z.object({ reason: z.string().trim().max(1000).optional() }).strict();

export const verifyPdfSchema = z.object({ pdf_base64: z.string().min(1).max(70_000_000) }).strict();
