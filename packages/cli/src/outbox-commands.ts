import type { Command, Values } from './command';
import { UsageError } from './usage-error';

/*
 * `formloom outbox list | retry | drop` (docs/cli.md "Stuck deliveries"): what the outbox could not send
 * (no mailer configured, a receiver failing), shown and handled by an operator. Payloads are never printed:
 * mails are sealed and webhook bodies hold respondents' answers.
 */

const str = { type: 'string' } as const;
const LIST_LIMIT = 1000;

const flag = (v: Values, name: string): string | undefined => {
  const value = v[name];
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '') throw new UsageError(`--${name} must not be empty`);
  return value;
};

const kindsOf = (v: Values) => {
  const kind = flag(v, 'kind');
  return kind === undefined ? undefined : [kind];
};

export const OUTBOX_COMMANDS: Command[] = [
  {
    name: 'outbox list',
    usage: 'outbox list [--kind mail|webhook|...] [--limit N]',
    summary: 'items that could not go out (failed, or waiting for a retry); prints {"items":[...]}, never a payload',
    options: { kind: str, limit: str },
    flags: { kind: 'only items of this kind (mail, webhook, signing_seal, ...)', limit: `at most this many (default and most: ${LIST_LIMIT})` },
    async run(_accounts, v, storage) {
      const raw = flag(v, 'limit');
      const limit = raw === undefined ? LIST_LIMIT : Number(raw);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIST_LIMIT) throw new UsageError(`--limit must be an integer from 1 to ${LIST_LIMIT}, got ${JSON.stringify(raw)}`);
      const items = await storage.outbox.listStuck({ limit, kinds: kindsOf(v) });
      return {
        items: items.map((i) => ({
          id: i.id,
          kind: i.kind,
          status: i.status,
          attempts: i.attempts,
          next_attempt_at: i.status === 'pending' ? i.next_attempt_at : null,
          last_error: i.last_error,
          created_at: i.created_at,
          updated_at: i.updated_at,
        })),
      };
    },
  },
  {
    name: 'outbox retry',
    usage: 'outbox retry (--id <obx_...> | --all [--kind K])',
    summary: 'make stuck items due now (a running worker sends them); prints {"requeued":[ids]}',
    options: { id: str, all: { type: 'boolean' }, kind: str },
    flags: { id: 'the item (from outbox list)', all: 'every item outbox list shows', kind: 'with --all: only items of this kind' },
    async run(_accounts, v, storage) {
      const now = new Date().toISOString();
      const ids = await chosen(v, storage);
      const requeued: string[] = [];
      for (const id of ids) if (await storage.outbox.requeue(id, now)) requeued.push(id);
      if (flag(v, 'id') !== undefined && requeued.length === 0) throw notActionable(ids[0]!);
      return { requeued };
    },
  },
  {
    name: 'outbox drop',
    usage: 'outbox drop --id <obx_...>',
    summary: 'give up on one stuck item for good (it is deleted); prints {"dropped":"<id>"}',
    options: { id: str },
    flags: { id: 'the item (from outbox list) (required)' },
    async run(_accounts, v, storage) {
      const id = flag(v, 'id');
      if (id === undefined) throw new UsageError('missing required flag --id');
      if (!(await storage.outbox.drop(id, new Date().toISOString()))) throw notActionable(id);
      return { dropped: id };
    },
  },
];

async function chosen(v: Values, storage: Parameters<Command['run']>[2]): Promise<string[]> {
  const id = flag(v, 'id');
  if ((id === undefined) === (v.all !== true)) throw new UsageError('give either --id or --all');
  if (id !== undefined) {
    if (flag(v, 'kind') !== undefined) throw new UsageError('--kind goes with --all');
    return [id];
  }
  return (await storage.outbox.listStuck({ limit: LIST_LIMIT, kinds: kindsOf(v) })).map((i) => i.id);
}

const notActionable = (id: string) =>
  new Error(`outbox item ${id}: unknown, already delivered, or being sent by a worker right now (see formloom outbox list)`);
