import type { Command, Values } from './command';
import { UsageError } from './usage-error';
import { OUTBOX_COMMANDS } from './outbox-commands';
import { PRIVACY_COMMANDS } from './privacy-commands';
import { RETENTION_COMMANDS } from './retention-command';
import { writeExportLines } from '@formloom/core';

export type { Command } from './command';

const str = { type: 'string' } as const;

/** `fl_<suffix>_<64 hex>`: a whole API key, whose id is `key_<suffix>` (docs/cli.md). */
const WHOLE_KEY = /^fl_([A-Za-z0-9]{8,40})_[0-9a-f]{64}$/;

export const COMMANDS: Command[] = [
  {
    name: 'migrate',
    usage: 'migrate',
    summary: 'bring the database schema up to date (every command does this first)',
    options: {},
    flags: {},
    // Every command migrates before it runs, so there is nothing left to do here.
    run: async () => ({ migrated: true }),
  },
  {
    name: 'user create',
    usage: 'user create --email E [--first-name F] [--last-name L] [--plan free|pro|business|enterprise] [--verified]',
    summary: 'create a user (the first one of an empty instance is its admin); prints {"user_id","email","plan"}',
    options: { email: str, 'first-name': str, 'last-name': str, plan: str, verified: { type: 'boolean' } },
    flags: {
      email: 'the email address (required; stored lower-case, must be unused)',
      'first-name': 'first name',
      'last-name': 'last name',
      plan: 'free (default), pro, business or enterprise',
      verified: 'mark the email as verified (the voice API needs it)',
    },
    async run(accounts, v) {
      const user = await accounts.createUser({
        email: required(v, 'email'),
        first_name: optional(v, 'first-name'),
        last_name: optional(v, 'last-name'),
        plan: optional(v, 'plan'),
        verified: v.verified === true,
      });
      return { user_id: user.id, email: user.email, plan: user.plan };
    },
  },
  {
    name: 'user list',
    usage: 'user list',
    summary: 'list every user, oldest first; prints {"users":[{"user_id","email",...,"is_admin"}]}',
    options: {},
    flags: {},
    async run(accounts) {
      const admin = await accounts.adminId();
      const users = [];
      // Pages of the largest size the service allows, so a big installation is not read in one query.
      for (let offset = 0; ; ) {
        const page = await accounts.listUsers({ offset, limit: 1000 });
        users.push(...page.items);
        offset += page.items.length;
        if (page.items.length === 0 || offset >= page.total) break;
      }
      return {
        users: users.map((u) => ({
          user_id: u.id,
          email: u.email,
          first_name: u.first_name,
          last_name: u.last_name,
          plan: u.plan,
          email_verified: u.email_verified,
          created_at: u.created_at,
          is_admin: u.id === admin,
        })),
      };
    },
  },
  {
    name: 'user admin',
    usage: 'user admin --email E [--revoke]',
    summary: 'make a user the instance\'s admin (the role passes from whoever held it), or take it back; prints {"user_id","email","is_admin"}',
    options: { email: str, revoke: { type: 'boolean' } },
    flags: {
      email: 'the user: email or user id (usr_...) (required)',
      revoke: 'take the admin role from the user instead (nothing changes when they do not hold it)',
    },
    async run(accounts, v) {
      const r = await accounts.setAdmin(required(v, 'email'), v.revoke !== true);
      return { user_id: r.user.id, email: r.user.email, is_admin: r.is_admin };
    },
  },
  {
    name: 'key list',
    usage: 'key list --user <id or email>',
    summary: 'list a user\'s API keys, revoked ones too; prints {"user_id","keys":[...]}, never a secret',
    options: { user: str },
    flags: { user: 'user id (usr_...) or email (required)' },
    async run(accounts, v) {
      const { user, keys } = await accounts.listKeys(required(v, 'user'));
      return { user_id: user.id, keys };
    },
  },
  {
    name: 'key create',
    usage: 'key create --user <id or email> [--scope forms|voice] [--monthly-limit N]',
    summary: 'create an API key; prints {"key_id","api_key","scope"}: the secret, shown once',
    options: { user: str, scope: str, 'monthly-limit': str },
    flags: {
      user: 'the owner: user id (usr_...) or email (required)',
      scope: 'forms (default: forms, teams, webhooks, signing) or voice (the voice endpoints)',
      'monthly-limit': 'most credits the key may spend in a calendar month (default: no limit)',
    },
    async run(accounts, v) {
      const limit = optional(v, 'monthly-limit');
      const key = await accounts.createKey(required(v, 'user'), {
        scope: optional(v, 'scope'),
        monthly_limit: limit === undefined ? null : positiveInteger('monthly-limit', limit),
      });
      return { key_id: key.key_id, api_key: key.api_key, scope: key.scope };
    },
  },
  {
    name: 'key revoke',
    usage: 'key revoke --key <key_id or api_key>',
    summary: 'revoke an API key at once; prints {"revoked":true}',
    options: { key: str },
    flags: { key: 'the key id (key_...) or the whole key (fl_..._...) (required)' },
    async run(accounts, v) {
      const key = required(v, 'key');
      const whole = WHOLE_KEY.exec(key);
      await accounts.revokeKey(whole ? `key_${whole[1]}` : key);
      return { revoked: true };
    },
  },
  {
    name: 'plan set',
    usage: 'plan set --user U --plan P',
    summary: 'move a user to another plan; prints {"user_id","plan"}',
    options: { user: str, plan: str },
    flags: { user: 'user id (usr_...) or email (required)', plan: 'free, pro, business or enterprise (required)' },
    async run(accounts, v) {
      const r = await accounts.setPlan(required(v, 'user'), required(v, 'plan'));
      return { user_id: r.user_id, plan: r.plan };
    },
  },
  {
    name: 'credits purchase',
    usage: 'credits purchase --user U --credits N',
    summary: 'record a purchase of credits; prints {"user_id","balance"}',
    options: { user: str, credits: str },
    flags: { user: 'user id (usr_...) or email (required)', credits: 'how many credits, a positive integer (required)' },
    async run(accounts, v) {
      const credits = positiveInteger('credits', required(v, 'credits'));
      const r = await accounts.purchaseCredits(required(v, 'user'), credits);
      return { user_id: r.user_id, balance: r.balance };
    },
  },
  {
    name: 'analytics rebuild',
    usage: 'analytics rebuild [--form <id>]',
    summary: 'recount the analytics rollup from the stored responses',
    options: { form: str },
    flags: { form: 'only this form (default: every form)' },
    // Recounts the analytics rollup from the stored responses (docs/cli.md): a repair, never needed in
    // normal operation, since every write keeps the rollup in step.
    async run(_accounts, v, storage) {
      const form = optional(v, 'form');
      if (form !== undefined && !(await storage.forms.findById(form))) throw new Error(`unknown form: ${form}`);
      await storage.responses.rebuildAnalytics(form);
      return { rebuilt: true, form_id: form ?? null };
    },
  },
  {
    name: 'export lines',
    usage: 'export lines --form <id>',
    summary: "write the CSV export line of each of a form's responses for its current columns",
    options: { form: str },
    flags: { form: 'the form (required)' },
    // The export sends a response's stored line only while the form's columns are those it was written for
    // (docs/responses-and-webhooks.md, "How the CSV export is fast"); this brings old responses up to date.
    async run(_accounts, v, storage) {
      const form = required(v, 'form');
      const written = await writeExportLines(storage, form);
      if (written === null) throw new Error(`unknown form: ${form}`);
      return { form_id: form, written };
    },
  },
  ...OUTBOX_COMMANDS,
  ...PRIVACY_COMMANDS,
  ...RETENTION_COMMANDS,
];

/** The command named by the leading words of `argv` (one or two), with the rest of `argv`. */
export function findCommand(argv: string[]): { command: Command; rest: string[] } {
  const words = argv.slice(0, 2).filter((w) => !w.startsWith('-'));
  for (let n = words.length; n > 0; n--) {
    const name = words.slice(0, n).join(' ');
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, rest: argv.slice(n) };
  }
  if (words.length === 0) throw new UsageError('missing command (try: formloom --help)');
  throw new UsageError(`unknown command: ${words.join(' ')} (try: formloom --help)`);
}

function required(v: Values, flag: string): string {
  const value = optional(v, flag);
  if (value === undefined) throw new UsageError(`missing required flag --${flag}`);
  return value;
}

function optional(v: Values, flag: string): string | undefined {
  const value = v[flag];
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') throw new UsageError(`--${flag} must not be empty`);
  return value;
}

function positiveInteger(flag: string, value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${flag} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
