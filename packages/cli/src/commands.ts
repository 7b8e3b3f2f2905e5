import type { ParseArgsConfig } from 'node:util';
import type { AccountService, Storage } from '@formloom/core';
import { UsageError } from './usage-error';

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One `formloom` command: its words, its flags, and what it does with the account service (or the storage). */
export interface Command {
  name: string;
  usage: string;
  options: Options;
  run(accounts: AccountService, values: Values, storage: Storage): Promise<Record<string, unknown>>;
}

const str = { type: 'string' } as const;

export const COMMANDS: Command[] = [
  {
    name: 'migrate',
    usage: 'migrate',
    options: {},
    // Every command migrates before it runs, so there is nothing left to do here.
    run: async () => ({ migrated: true }),
  },
  {
    name: 'user create',
    usage: 'user create --email E [--first-name F] [--last-name L] [--plan free|pro|business|enterprise] [--verified]',
    options: { email: str, 'first-name': str, 'last-name': str, plan: str, verified: { type: 'boolean' } },
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
    name: 'key create',
    usage: 'key create --user <id or email> [--scope forms|voice] [--monthly-limit N]',
    options: { user: str, scope: str, 'monthly-limit': str },
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
    usage: 'key revoke --key <key_id>',
    options: { key: str },
    async run(accounts, v) {
      await accounts.revokeKey(required(v, 'key'));
      return { revoked: true };
    },
  },
  {
    name: 'plan set',
    usage: 'plan set --user U --plan P',
    options: { user: str, plan: str },
    async run(accounts, v) {
      const r = await accounts.setPlan(required(v, 'user'), required(v, 'plan'));
      return { user_id: r.user_id, plan: r.plan };
    },
  },
  {
    name: 'credits purchase',
    usage: 'credits purchase --user U --credits N',
    options: { user: str, credits: str },
    async run(accounts, v) {
      const credits = positiveInteger('credits', required(v, 'credits'));
      const r = await accounts.purchaseCredits(required(v, 'user'), credits);
      return { user_id: r.user_id, balance: r.balance };
    },
  },
  {
    name: 'analytics rebuild',
    usage: 'analytics rebuild [--form <id>]',
    options: { form: str },
    // Recounts the analytics rollup from the stored responses (docs/cli.md): a repair, never needed in
    // normal operation, since every write keeps the rollup in step.
    async run(_accounts, v, storage) {
      const form = optional(v, 'form');
      if (form !== undefined && !(await storage.forms.findById(form))) throw new Error(`unknown form: ${form}`);
      await storage.responses.rebuildAnalytics(form);
      return { rebuilt: true, form_id: form ?? null };
    },
  },
];

export const USAGE = ['usage: formloom <command> [flags]', ...COMMANDS.map((c) => `  formloom ${c.usage}`)].join('\n');

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
