import { z } from 'zod';
import { documented } from '@formloom/core';

/** The shared error responses of the document (`#/components/responses/<name>`), all in the error shape. */
export const ERROR_RESPONSES: Record<number, { name: string; description: string }> = {
  400: {
    name: 'BadRequest',
    description:
      'Bad request (BAD_REQUEST and the like): `field` names the first problem. Besides each schema, every request is refused when a string anywhere in its path parameters, query or JSON body (object keys included) contains U+0000 (`<field>: must not contain NUL characters`), or when its JSON body nests objects and arrays deeper than 32 levels',
  },
  401: { name: 'Unauthorized', description: 'Missing, malformed, revoked or expired credentials (UNAUTHORIZED)' },
  402: { name: 'PaymentRequired', description: 'Not enough credits (INSUFFICIENT_CREDITS and the like)' },
  403: { name: 'Forbidden', description: 'Not permitted: role, plan or key scope (FORBIDDEN); `upgrade_required` when a plan would allow it' },
  404: { name: 'NotFound', description: 'Not found, or not accessible to the caller (NOT_FOUND)' },
  409: { name: 'Conflict', description: 'Conflict with the current state (CONFLICT); `reason` says which' },
  412: { name: 'PreconditionFailed', description: 'The form changed since it was read: `If-Match` does not match its current `ETag` (PRECONDITION_FAILED, reason `etag_mismatch`)' },
  413: { name: 'PayloadTooLarge', description: 'Body or file too large (PAYLOAD_TOO_LARGE)' },
  415: { name: 'UnsupportedMediaType', description: 'File type not allowed for the question (UNSUPPORTED_MEDIA_TYPE)' },
  416: { name: 'RangeNotSatisfiable', description: 'The byte range is past the end of the file (RANGE_NOT_SATISFIABLE), with `Content-Range: bytes */<size>`' },
  429: { name: 'RateLimited', description: 'Rate limited (RATE_LIMITED); wait `Retry-After` seconds' },
  500: { name: 'InternalError', description: 'Unexpected error (INTERNAL_ERROR); logged with the request id' },
  503: { name: 'ServiceUnavailable', description: 'Not available yet (WARMING_UP: a speech engine is starting); retry after `Retry-After` seconds' },
};

/** The top-level tag list: what each group of operations is for. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Forms: 'Forms and their questions: list, create, read, update, delete, duplicate',
  Publishing: 'Publishing forms as versions, taking them offline, version history',
  Theme: "A form's colours, fonts, branding and texts",
  Public: "Respondents' endpoints (no key): the published form, submissions, uploads",
  Responses: 'Responses of a form: list, read, export as CSV, XLSX or JSON, delete',
  Analytics: 'Aggregates of the responses of a form',
  Respondents: "A respondent's rights: find, export and erase everything one person submitted (docs/privacy.md)",
  Webhooks: 'Webhooks of forms and accounts, the signing secret, the deliveries log',
  Teams: 'Teams, members, invitations, audit logs and branding',
  'Signing sessions': 'Signing sessions of contract questions: create, follow, void; signed documents and audit trails',
  'Signing (signer)': "A signer's endpoints, by the short code of their link (no key)",
  Voice: 'Text to speech: voices, estimates, generations, streams and their audio',
  'Sign-in': 'People signing in (with `sessions` options): sign-up, password, email links, passkeys, sessions',
  Account: "The signed-in person's profile, password, sessions, passkeys and API keys",
};

type Io = 'input' | 'output';

type Override = (ctx: { zodSchema: unknown; jsonSchema: Record<string, unknown> }) => void;

/**
 * Drops what only clutters the document (zod's date patterns, the format says it; the safe-integer
 * bounds), and applies what core says about schemas whose checks zod cannot render (`documentAs`).
 */
function tidyFor(io: Io): Override {
  const tidy: Override = (ctx) => {
    const js = ctx.jsonSchema;
    const how = documented.get(ctx.zodSchema as object);
    if (how?.as) {
      // Rendered from another zod schema (e.g. the per-type question union): its keywords replace these.
      const other = z.toJSONSchema(how.as, { target: 'draft-2020-12', io, unrepresentable: 'any', override: tidy as never }) as Record<string, unknown>;
      const { $schema: _s, ...rest } = other;
      for (const k of Object.keys(js)) delete js[k];
      Object.assign(js, rest);
    }
    if (how?.keywords) Object.assign(js, how.keywords);
    if ((js.format === 'date-time' || js.format === 'date') && typeof js.pattern === 'string') delete js.pattern;
    if (js.type === 'integer' || js.type === 'number') {
      if (js.minimum === Number.MIN_SAFE_INTEGER) delete js.minimum;
      if (js.maximum === Number.MAX_SAFE_INTEGER) delete js.maximum;
    }
    const description = z.globalRegistry.get(ctx.zodSchema as z.ZodType)?.description;
    if (description && js.description === undefined) js.description = description;
  };
  return tidy;
}

const DEFS = '#/$defs/';
const COMPONENTS = '#/components/schemas/';

/**
 * A zod → JSON Schema (2020-12, as OpenAPI 3.1 uses) converter that moves named schemas (those with an id
 * in `registry`) into `components`, referenced by `$ref`. Two different schemas under one name are refused.
 */
export function schemaConverter(components: Record<string, unknown>) {
  return (schema: z.ZodType, io: Io, registry?: z.core.$ZodRegistry<{ id?: string }>) => {
    const json = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
      override: tidyFor(io) as never,
      ...(registry ? { metadata: registry as never } : {}),
    }) as Record<string, unknown>;
    const { $schema: _s, $defs, ...rest } = JSON.parse(JSON.stringify(json).replaceAll(`"${DEFS}`, `"${COMPONENTS}`)) as Record<string, unknown>;
    for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
      const known = components[id];
      if (known !== undefined && JSON.stringify(known) !== JSON.stringify(def)) throw new Error(`Two different schemas are named ${id} in the OpenAPI document`);
      components[id] = def;
    }
    return rest;
  };
}

/**
 * The names of the components the built-in routes document (all areas). A plugin's or host's route naming a
 * component like one of them is the only way it can clash with the rest of the document, so only then is the
 * whole document described at mount (`assertDocumentable`). openapi/document.ts checks the list against the
 * served document.
 */
export const BUILT_IN_COMPONENTS: ReadonlySet<string> = new Set(
  `AcceptedInvitation Analytics Answer AnswerValue AuditEvent AuditEventList BulkDeleteResult CreatedForm CreatedInvitation
  CreatedTeam DeclineResult Error Form FormList FormListItem FormWebhook Funnel FuseLink GlobalWebhook GlobalWebhookList
  Integration IntegrationDelivery IntegrationDeliveryList IntegrationDeliveryRetry IntegrationField IntegrationList
  IntegrationTest IntegrationType IntegrationTypeList Invitation InvitationList Logo Membership PublicForm PublicInvitation
  PublicQuestion PublicSnapshot PublishedForm Question QuestionSummaries RespondentErased RespondentResponse
  RespondentResponses Response ResponseExport ResponseList SignResult SignedDocument SignedDocumentList
  SignedPdfVerification SignerAccessToken SignerContext SignerDocument SignerLink SigningAuditEntry SigningAuditTrail
  SigningRequestResent SigningSession SigningSessionList SubmittedResponse Success SuccessWithMessage Team TeamBranding
  TeamDetail TeamList TeamListItem TeamMember TeamMemberList Theme Upload VerificationCodeSent Version VersionList
  VisitRecorded Voice VoiceCreditEntry VoiceCredits VoiceEstimate VoiceEstimateBody VoiceGeneration VoiceGenerationBody
  VoiceGenerationDeleted VoiceGenerationList VoiceList VoiceQuality VoiceScriptLine VoidedSigningSession WebhookDelivery
  WebhookDeliveryList WebhookDeliveryRetry WebhookSecret WebhookTest`.split(/\s+/),
);
