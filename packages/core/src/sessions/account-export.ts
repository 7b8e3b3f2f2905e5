import { inject, injectable } from 'tsyringe';
import type { Principal } from '../domain/types';
import type { BlobStore } from '../ports/blob-store';
import type { Clock } from '../ports/clock';
import type { Storage } from '../ports/storage';
import { TOKENS } from '../tokens';
import { notFound } from '../errors';
import { formatKey } from '../voice/synthesis';
import { listAllForms } from '../forms/form-access';

/** The form settings that may hold an uploaded logo's URL (`/public/logos/<form>/<file>`, form-logos routes). */
const LOGO_FIELDS = ['branding_logo_url', 'top_logo_url'] as const;
const LOGO_URL = /\/public\/logos\/([A-Za-z0-9_]+)\/([0-9a-f]{32}\.(?:png|jpg|webp|svg))(?:[?#]|$)/;

/** One file of the export: its path in the archive and how to read its bytes (from the blob store). */
export interface ExportFile {
  path: string;
  read(): Promise<Uint8Array | null>;
}

/** The archive's README.txt: what each document holds (the API's ZIP and `formloom user export` write the same). */
export const ACCOUNT_EXPORT_README = [
  'Everything this Formloom server holds about your account, as of the export.',
  '',
  'account.json  your profile, API keys (never their secrets), sessions, passkeys, teams, credits and their',
  '              ledger, webhook addresses',
  'forms.json    your own forms: settings, questions, how many responses each has (the responses themselves',
  "              are your respondents' data: download them from each form's results)",
  'voice.json    your voice generations; voice/ holds their audio',
  'logos/        the logos you uploaded to your forms, by form',
  '',
].join('\n');

/**
 * "Export my data" (docs/accounts.md, "Your data"): everything the instance holds about the signed-in person, as
 * JSON documents and files for an archive: the account, its keys (never a secret), sessions, passkeys, teams,
 * their own forms with questions and versions, credits and their ledger, webhook settings (never the secret),
 * voice generations and their audio, the logos uploaded to their forms. Responses to their forms are their
 * respondents' data: counted, not copied (the results export has them).
 */
@injectable()
export class AccountExportService {
  constructor(
    @inject(TOKENS.Storage) private readonly storage: Storage,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
  ) {}

  async collect(principal: Principal): Promise<{ documents: Record<string, unknown>; files: ExportFile[]; name: string }> {
    const userId = principal.user_id;
    const user = await this.storage.users.findById(userId);
    if (!user) throw notFound('User');
    const now = this.clock.now().toISOString();
    const [keys, sessions, passkeys, teams, credits, entries, webhooks, adminId] = await Promise.all([
      this.storage.apiKeys.listByUser(userId),
      this.storage.signInSessions.listByUser(userId, now),
      this.storage.passkeys.listByUser(userId),
      this.storage.teams.listForUser(userId),
      this.storage.credits.balance(userId),
      this.storage.credits.entries(userId),
      this.storage.webhooks.listGlobal(userId),
      this.storage.credentials.adminId(),
    ]);
    const forms = [];
    const logos = new Set<string>();
    for (const f of await listAllForms(this.storage, { ownerId: userId, teamIds: [] })) {
      for (const field of LOGO_FIELDS) {
        const match = LOGO_URL.exec(String(f.options[field] ?? ''));
        if (match && match[1] === f.id) logos.add(`logos/${match[1]}/${match[2]}`);
      }
      const questions = await this.storage.questions.listByForm(f.id);
      forms.push({ id: f.id, title: f.title, description: f.description, slug: f.slug, published: f.published, created_at: f.created_at, updated_at: f.updated_at, response_count: f.response_count, settings: f.options, questions });
    }
    const generations = [];
    for (let offset = 0; ; offset += 200) {
      const page = await this.storage.voiceGenerations.listByUser(userId, { limit: 200, offset });
      generations.push(...page.items);
      if (page.items.length < 200) break;
    }
    const files: ExportFile[] = generations
      .filter((g) => !g.audio_deleted_at && g.format)
      .map((g) => ({ path: `voice/${g.id}.${g.format}`, read: async () => (await this.blobs.get(formatKey(g.id, g.format)))?.data ?? null }));
    // The logos they uploaded (their blob key is their path here); a logo hosted elsewhere is only a URL in forms.json.
    for (const key of logos) files.push({ path: key, read: async () => (await this.blobs.get(key))?.data ?? null });
    const account = {
      exported_at: now,
      user: { id: user.id, email: user.email, first_name: user.first_name, last_name: user.last_name, plan: user.plan, email_verified: user.email_verified, created_at: user.created_at },
      is_admin: adminId === userId,
      api_keys: keys.map((k) => ({ key_id: k.id, scope: k.scope, monthly_limit: k.monthly_limit, created_at: k.created_at, revoked_at: k.revoked_at, expires_at: k.expires_at })),
      sessions: sessions.map((s) => ({ id: s.id, created_at: s.created_at, last_seen_at: s.last_seen_at, expires_at: s.expires_at, user_agent: s.user_agent, ip_address: s.ip_address })),
      passkeys: passkeys.map((p) => ({ id: p.id, name: p.name, created_at: p.created_at, last_used_at: p.last_used_at })),
      teams: teams.map((t) => ({ id: t.team.id, name: t.team.name, role: t.role })),
      credits: { balance: credits, entries },
      webhooks: webhooks.map((w) => ({ url: w.url, enabled: w.enabled })),
    };
    const voice = generations.map((g) => ({ ...g, audio_file: files.some((f) => f.path.startsWith(`voice/${g.id}.`)) ? `voice/${g.id}.${g.format}` : null }));
    const name = `formloom-${user.email.replace(/[^A-Za-z0-9.@_-]/g, '_')}-${now.slice(0, 10)}`;
    return { documents: { 'account.json': account, 'forms.json': forms, 'voice.json': voice }, files, name };
  }
}
