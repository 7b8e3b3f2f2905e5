import { AccountDeletionService, RespondentDataService } from '@formloom/core';
import type { Command, Values } from './command';
import { UsageError } from './usage-error';
import { writeAccountArchive } from './account-archive';

/*
 * `formloom user export`, `formloom user delete` and `formloom respondent find | erase` (docs/cli.md, docs/privacy.md): what the account
 * page and the admin area do, for an operator on the server's machine. Files go through the outbox: the running
 * server deletes them.
 */

const str = { type: 'string' } as const;

const value = (v: Values, name: string): string | undefined => {
  const x = v[name];
  if (typeof x !== 'string') return undefined;
  if (x.trim() === '') throw new UsageError(`--${name} must not be empty`);
  return x;
};

/** `--email` or `--visitor-id`, at least one: whose data. */
function respondent(v: Values): { email?: string; visitor_id?: string } {
  const email = value(v, 'email');
  const visitor = value(v, 'visitor-id');
  if (!email && !visitor) throw new UsageError('give --email or --visitor-id: whose responses');
  return { ...(email ? { email } : {}), ...(visitor ? { visitor_id: visitor } : {}) };
}

const respondentFlags = {
  email: 'an email address the respondent gave (an answer or a hidden field), matched whole, any case',
  'visitor-id': "the visitor id the respondent's page sent",
};

export const PRIVACY_COMMANDS: Command[] = [
  {
    name: 'user export',
    usage: 'user export --email <email or id> <file.zip>',
    summary: 'write everything the instance holds about a person to a ZIP, as their account page downloads it; prints {"file","bytes","user_id","email","documents","files"}',
    options: { email: str },
    positionals: ['file'],
    readsFiles: true,
    flags: { email: 'the person: email or user id (usr_...) (required)' },
    async run(accounts, v, _storage, formloom) {
      const ref = value(v, 'email');
      if (!ref) throw new UsageError('missing required flag --email');
      const user = await accounts.findUser(ref);
      return writeAccountArchive(formloom, user, String(v.file));
    },
  },
  {
    name: 'user delete',
    usage: 'user delete --user <id or email> [--delete-signed-contracts]',
    summary: 'delete an account and everything of it, as its account page does; prints {"deleted","forms","responses","teams_deleted"}',
    options: { user: str, 'delete-signed-contracts': { type: 'boolean' } },
    flags: {
      user: 'user id (usr_...) or email (required)',
      'delete-signed-contracts': 'also delete forms that hold signed contracts (refused without it)',
    },
    async run(accounts, v, _storage, formloom) {
      const ref = value(v, 'user');
      if (!ref) throw new UsageError('missing required flag --user');
      const user = await accounts.findUser(ref);
      return formloom.service(AccountDeletionService).deleteByOperator(user.id, v['delete-signed-contracts'] === true);
    },
  },
  {
    name: 'respondent find',
    usage: 'respondent find (--email E | --visitor-id V)',
    summary: "one respondent's responses in every form, newest first (their data, to export); prints {\"responses\":[...],\"total\"}",
    options: { email: str, 'visitor-id': str },
    flags: respondentFlags,
    async run(_accounts, v, _storage, formloom) {
      return formloom.service(RespondentDataService).find(null, respondent(v));
    },
  },
  {
    name: 'respondent erase',
    usage: 'respondent erase (--email E | --visitor-id V)',
    summary: 'erase one respondent\'s responses, files and deliveries in every form (signed contracts kept); prints {"erased","forms","files","kept"}',
    options: { email: str, 'visitor-id': str },
    flags: respondentFlags,
    async run(_accounts, v, _storage, formloom) {
      return formloom.service(RespondentDataService).erase(null, respondent(v));
    },
  },
];
