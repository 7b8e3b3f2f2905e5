import { FormService, type Principal, type Storage } from '@formloom/core';
import type { Command, Values } from './command';
import { UsageError } from './usage-error';

/*
 * `formloom form retention <form>` (docs/cli.md, docs/privacy.md "Retention"): a form's policy shown, or set as the
 * builder's settings and `PUT /forms/:id` set it: the same checks and the same stored field, `response_retention`.
 * The running server applies it at its next hourly sweep.
 */

const str = { type: 'string' } as const;

function count(v: Values, flag: string): number | undefined {
  const raw = v[flag];
  if (typeof raw !== 'string') return undefined;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new UsageError(`--${flag} must be a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** Whom the change is made as: the form's owner, or for a team's form the team's owner (who may edit every form). */
async function ownerOf(storage: Storage, form: { owner_id: string; team_id: string | null }): Promise<Principal> {
  const team = form.team_id ? await storage.teams.findById(form.team_id) : null;
  return { user_id: team?.owner_id ?? form.owner_id, key_id: null, scope: 'forms' };
}

export const RETENTION_COMMANDS: Command[] = [
  {
    name: 'form retention',
    usage: 'form retention <form> [--older-than-days N] [--keep-newest N] [--off]',
    summary: 'show how long a form keeps its responses, or set it; prints {"form_id","title","response_retention"}',
    options: { 'older-than-days': str, 'keep-newest': str, off: { type: 'boolean' } },
    positionals: ['form'],
    flags: {
      'older-than-days': 'delete responses submitted more than N days ago (1 to 36500)',
      'keep-newest': 'keep only the newest N responses (with --older-than-days: both apply)',
      off: 'keep every response (the default of a form)',
    },
    async run(_accounts, v, storage, formloom) {
      const id = String(v.form);
      const form = await storage.forms.findById(id);
      if (!form) throw new Error(`unknown form: ${id}`);
      const days = count(v, 'older-than-days');
      const newest = count(v, 'keep-newest');
      const off = v.off === true;
      if (off && (days !== undefined || newest !== undefined)) throw new UsageError('--off keeps every response: give it alone');
      // The flags given are the whole policy, as the API's `response_retention` is: a flag left out is no rule.
      let policy = (form.options.response_retention as Record<string, number> | null | undefined) ?? null;
      if (off || days !== undefined || newest !== undefined) {
        const wanted = off ? null : { ...(days !== undefined ? { older_than_days: days } : {}), ...(newest !== undefined ? { keep_newest: newest } : {}) };
        const saved = await formloom.service(FormService).update(await ownerOf(storage, form), id, { response_retention: wanted });
        policy = (saved.response_retention as Record<string, number> | null | undefined) ?? null;
      }
      // `{}` and null both keep everything (docs/privacy.md): shown as null.
      return { form_id: form.id, title: form.title, response_retention: policy && Object.keys(policy).length ? policy : null };
    },
  },
];
