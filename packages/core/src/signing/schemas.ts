import { z } from 'zod';
import { emailAddress } from '../email-address';
import { MAX_SIGNER_SLOTS } from '../forms/question-types';
import { documentAs } from '../api-schemas';

/** The events `notify_emails` can subscribe to (docs/signing.md). */
export const NOTIFY_EVENTS = ['each_signature', 'all_complete', 'decline', 'expiry'] as const;
export const PUBLIC_STATUSES = ['active', 'fully_signed', 'declined', 'voided', 'expired'] as const;
export type PublicSessionStatus = (typeof PUBLIC_STATUSES)[number];

const name = z.string().trim().max(200).nullable().optional();

/** POST /forms/:id/signing-sessions. Bounds the API leaves open are in docs/decisions.md ("Signing"). */
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
 * docs/decisions.md "Lists and paging" says (non-numeric page 1, per_page 20; per_page within 1-100;
 * page at least 1).
 */
export const listSessionsQuery = z.object({
  status: z.enum(PUBLIC_STATUSES).optional().describe('Only sessions in this status'),
  page: z.string().optional().catch(undefined).meta({ type: 'integer', minimum: 1, description: '1-based page (default 1; below 1 or not a number: 1)' }),
  per_page: z.string().optional().catch(undefined).meta({ type: 'integer', minimum: 1, maximum: 100, description: 'Items per page (default 20; clamped to 1-100; not a number: 20)' }),
});

export const verifyPasswordSchema = z.object({ password: z.string().max(200) }).strict();

/**
 * The longest drawn signature @formloom/pdf takes (its SIGNATURE_LIMITS, which core cannot import): the data
 * URL prefix and 512 KiB in base64.
 */
const DRAWN_MAX_LENGTH = 'data:image/png;base64,'.length + Math.ceil((512 * 1024) / 3) * 4;

/**
 * A signature as documented: what the PDF renderer (@formloom/pdf, signature-check.ts) checks before the
 * signature is recorded (docs/signing.md, "Signatures"), as far as a schema can say it, the rest in words.
 */
const signatureDoc = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('typed'), value: z.string().min(1).max(200).regex(/\S/).describe('The name as typed: at most 200 characters, not blank') })
    .strict(),
  z
    .object({
      type: z.literal('drawn'),
      value: z
        .string()
        .max(DRAWN_MAX_LENGTH)
        .regex(/^data:image\/png;base64,[A-Za-z0-9+/\s]*(?:=\s*){0,2}$/)
        .describe(
          'A PNG data URL from the signing pad (white space only inside the base64). The PNG itself, checked before the signature is recorded (else 400 `field: signature`): at most 512 KiB; the PNG signature, then IHDR; 1 to 2000 pixels a side; non-interlaced, of a standard colour type and bit depth (a palette image with its PLTE); IDAT data that inflates to exactly its rows, each with a filter type 0 to 4; an IEND',
        ),
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

export const verifyPdfSchema = z
  .object({
    pdf_base64: z
      .string()
      .min(1)
      .max(70_000_000)
      .describe('The PDF in standard base64 (padding optional, white space and line breaks ignored): at most 20 MiB once decoded, with `%PDF-` in its first 1,024 bytes (else 400; reason `invalid_base64` or `not_a_pdf`)'),
  })
  .strict();
