import { createHash } from 'node:crypto';
import { inject, injectable } from 'tsyringe';
import { z } from 'zod';
import { badRequest, forbidden } from '../errors';
import { int, named } from '../api-schemas';
import { responseOut } from './output-schemas';
import type { FormRecord, Principal, Question, ResponseRecord } from '../domain/types';
import type { IdGenerator } from '../ports/id-generator';
import type { BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type { FormloomEvents } from '../events';
import type { Storage } from '../ports/storage';
import type { Logger } from '../logger';
import { TOKENS } from '../tokens';
import { parseBody } from '../parse';
import { listAllForms, roleAllows, type FormAction } from '../forms/form-access';
import { isEmailAddress } from '../email-address';
import { AuditService } from '../teams/audit-service';
import { presentResponse } from './response-presenter';
import { BLOB_FOLDERS_KIND, eraseResponses } from './erase-responses';
import { WebhookDispatcher } from '../webhooks/webhook-dispatcher';

/** Responses of one respondent that a request finds (and erases) at most: enough for anyone's real history. */
export const RESPONDENT_LIMIT = 1000;

export const respondentQuerySchema = z
  .object({
    email: z.string().trim().max(320).optional().describe('An email address the respondent gave (an answer or a hidden field), matched whole and case-insensitively'),
    visitor_id: z.string().trim().min(1).max(200).optional().describe('The visitor id the respondent\'s page sent'),
  })
  .strict();

export type RespondentQuery = z.infer<typeof respondentQuerySchema>;

export const respondentResponsesOut = named(
  'RespondentResponses',
  z.object({
    responses: z.array(z.object({ form_id: z.string(), form_title: z.string(), response: responseOut })).describe('Newest first, at most 1,000'),
    total: int,
  }),
);

export const respondentErasedOut = named(
  'RespondentErased',
  z.object({
    erased: int.describe('Responses deleted'),
    forms: int.describe('Forms they were in'),
    files: int.describe('Uploaded files deleted with them'),
    kept: z
      .array(z.object({ form_id: z.string(), response_id: z.string(), reason: z.literal('signed_contract') }))
      .describe('Responses kept because they hold a signed contract, which the law lets (often obliges) the owner to keep (docs/privacy.md)'),
  }),
);

/** Question types whose answers are signed documents: kept as the law allows (docs/privacy.md). */
const SIGNED = new Set(['contract']);

/**
 * A respondent's rights (docs/privacy.md): everything one person submitted, found by the email address they gave
 * or their visitor id, across the forms the caller may see (the instance's admin: every form), to export or to
 * erase: the responses, their uploaded files, their webhook deliveries, with the summary's counters corrected.
 */
@injectable()
export class RespondentDataService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.IdGenerator) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.Events) private readonly events: FormloomEvents,
    @inject(TOKENS.Logger) private readonly logger: Logger,
    @inject(AuditService) private readonly audit: AuditService,
    @inject(WebhookDispatcher) private readonly webhooks: WebhookDispatcher,
  ) {}

  /** The forms whose responses the caller may act on, by id; `null`: every form (the admin). */
  private async formsOf(principal: Principal | null, action: FormAction, everywhere: boolean): Promise<Map<string, FormRecord> | null> {
    if (everywhere || !principal) {
      if (principal && (await this.storage.credentials.adminId()) !== principal.user_id) {
        throw forbidden('Only the administrator of this server may do this', { reason: 'not_instance_admin' });
      }
      return null;
    }
    const teams = (await this.storage.teams.membershipsOf(principal.user_id)).filter((m) => roleAllows(m.role, action)).map((m) => m.team_id);
    return new Map((await listAllForms(this.storage, { ownerId: principal.user_id, teamIds: teams })).map((f) => [f.id, f]));
  }

  private parse(query: unknown): { email?: string; visitor_id?: string } {
    const q = parseBody(respondentQuerySchema, query);
    if (!q.email && !q.visitor_id) throw badRequest('Give email or visitor_id: whose responses to find', { field: 'email', reason: 'respondent_required' });
    if (q.email !== undefined && !isEmailAddress(q.email)) throw badRequest('email: not an email address', { field: 'email', reason: 'invalid_email' });
    return { ...(q.email ? { email: q.email.toLowerCase() } : {}), ...(q.visitor_id ? { visitor_id: q.visitor_id } : {}) };
  }

  /** Candidates checked whole: an answer or hidden value equal to the address (not one merely containing it). */
  private async matches(principal: Principal | null, query: unknown, action: FormAction, everywhere: boolean) {
    const match = this.parse(query);
    const forms = await this.formsOf(principal, action, everywhere);
    if (forms && forms.size === 0) return { match, found: [] as Array<{ form: FormRecord; response: ResponseRecord }> };
    const candidates = await this.storage.responses.findByRespondent(forms ? [...forms.keys()] : null, match, RESPONDENT_LIMIT);
    const found: Array<{ form: FormRecord; response: ResponseRecord }> = [];
    for (const r of candidates) {
      if (!(match.visitor_id && r.visitor_id === match.visitor_id) && !(match.email && holdsEmail(r, match.email))) continue;
      const form = forms?.get(r.form_id) ?? (await this.storage.forms.findById(r.form_id));
      if (form) found.push({ form, response: r });
    }
    return { match, found };
  }

  /** `GET /respondents/responses`: the respondent's responses with their forms, newest first (an export as JSON). */
  async find(principal: Principal | null, query: unknown, everywhere = false) {
    const { found } = await this.matches(principal, query, 'read', everywhere);
    return {
      responses: found.map(({ form, response }) => ({ form_id: form.id, form_title: form.title, response: presentResponse(response) })),
      total: found.length,
    };
  }

  /**
   * `POST /respondents/erase`: deletes the respondent's responses, their files and deliveries (the counters
   * corrected in the same transaction); a response holding a signed contract is kept and listed.
   */
  async erase(principal: Principal | null, body: unknown, everywhere = false) {
    const { match, found } = await this.matches(principal, body, 'delete_responses', everywhere);
    const kept: Array<{ form_id: string; response_id: string; reason: 'signed_contract' }> = [];
    const byForm = new Map<string, { form: FormRecord; ids: string[] }>();
    const questions = new Map<string, Question[]>();
    for (const { form, response } of found) {
      const qs = questions.get(form.id) ?? (await this.storage.questions.listByForm(form.id));
      questions.set(form.id, qs);
      if (holdsSignedContract(response, qs)) {
        kept.push({ form_id: form.id, response_id: response.id, reason: 'signed_contract' });
        continue;
      }
      const entry = byForm.get(form.id) ?? { form, ids: [] };
      entry.ids.push(response.id);
      byForm.set(form.id, entry);
    }
    let erased = 0;
    let files = 0;
    let events = 0;
    // A fingerprint, not the address: the trail proves an erasure without keeping what was erased.
    const who = createHash('sha256').update(match.email ?? `visitor:${match.visitor_id}`).digest('hex').slice(0, 16);
    for (const { form, ids } of byForm.values()) {
      const done = await eraseResponses({ storage: this.storage, ids: this.ids, clock: this.clock, blobs: this.blobs, webhooks: this.webhooks }, form, ids, {
        reason: 'erasure',
        inTx: async (tx, n) => {
          if (form.team_id) await this.audit.record(tx, form.team_id, 'responses.erased', principal, { form_id: form.id, title: form.title, responses: n, respondent: who });
        },
      });
      erased += done.erased;
      files += done.files;
      events += done.events;
    }
    if (files) this.events.emit('outbox.enqueued', { kind: BLOB_FOLDERS_KIND });
    if (events) this.events.emit('outbox.enqueued', { kind: 'webhook' });
    this.logger.info(`respondent data erased: ${erased} responses in ${byForm.size} forms (respondent ${who})`);
    return { erased, forms: byForm.size, files, kept };
  }
}

/** Some answer or hidden value equal to the address, ignoring case: the email question, contact info, a hidden field. */
function holdsEmail(r: ResponseRecord, email: string): boolean {
  const equal = (v: unknown): boolean => {
    if (typeof v === 'string') return v.trim().toLowerCase() === email;
    if (Array.isArray(v)) return v.some(equal);
    if (v && typeof v === 'object') return Object.values(v as Record<string, unknown>).some(equal);
    return false;
  };
  return r.answers.some((a) => equal(a.value)) || Object.values(r.metadata.hidden ?? {}).some(equal);
}

function holdsSignedContract(r: ResponseRecord, questions: Question[]): boolean {
  const signed = new Set(questions.filter((q) => SIGNED.has(q.type)).map((q) => q.id));
  return r.answers.some((a) => signed.has(a.question_id) && a.value !== null && a.value !== undefined && a.value !== '');
}
