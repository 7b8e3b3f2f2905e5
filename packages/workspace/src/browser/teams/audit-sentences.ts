import type { AuditEvent, TeamMember } from '../../data/teams';

/*
 * The team audit log in plain words (issue 36): each entry is a sentence a team owner reads without knowing the
 * API ("Ada invited bob@example.com as editor"), never an action code or the details' JSON. The details read
 * here are the ones the core records with each action (docs/teams.md, "Audit log"); an action this file does
 * not know yet still reads as a sentence, from its code's words.
 */

type Details = Record<string, unknown>;

/** A person's name as the team knows them: first and last name, else their address. */
export function personName(m: Pick<TeamMember, 'first_name' | 'last_name' | 'email'>): string {
  return [m.first_name, m.last_name].filter(Boolean).join(' ') || m.email;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const quoted = (v: unknown, fallback: string): string => (text(v) ? `“${text(v)}”` : fallback);

/** What the filter's options say for each action. */
export const ACTION_LABELS: Record<string, string> = {
  'team.created': 'Team created',
  'team.renamed': 'Team renamed',
  'team.deleted': 'Team deleted',
  'member.invited': 'Person invited',
  'member.joined': 'Person joined',
  'member.role_changed': 'Role changed',
  'member.removed': 'Person removed',
  'invitation.cancelled': 'Invitation cancelled',
  'branding.updated': 'Branding changed',
  'branding.deleted': 'Branding removed',
  'form.created': 'Form created',
  'form.published': 'Form published',
  'form.unpublished': 'Form unpublished',
  'form.deleted': 'Form deleted',
  'form.moved_in': 'Form moved in',
  'form.moved_out': 'Form moved out',
  'form.copied_in': 'Form copied in',
  'form.copied_out': 'Form copied elsewhere',
  'webhooks.changed': 'Webhook changed',
  'responses.erased': "A respondent's data erased",
};

/** "member.role_changed" → "role changed": the last resort for an action without a sentence. */
function words(action: string): string {
  return action.replace(/[._]/g, ' ');
}

/**
 * The sentence for one entry. `members` names people by their user id (someone who left the team is named
 * by the address the entry kept, else "someone who left the team").
 */
export function auditSentence(ev: Pick<AuditEvent, 'action' | 'user_id' | 'user_email' | 'details'>, members: TeamMember[]): string {
  const byId = new Map(members.map((m) => [m.user_id, m]));
  const d = (ev.details ?? {}) as Details;
  const someone = (id: unknown, fallback = 'someone who left the team') => {
    const m = typeof id === 'string' ? byId.get(id) : undefined;
    return m ? personName(m) : fallback;
  };
  const actor = ev.user_id ? someone(ev.user_id, ev.user_email ?? 'Someone who left the team') : ev.user_email ?? 'Formloom';
  const form = quoted(d.title, 'a form');
  switch (ev.action as string) {
    case 'team.created':
      return `${actor} created the team${text(d.name) ? ` ${quoted(d.name, '')}` : ''}.`;
    case 'team.renamed':
      return `${actor} renamed the team from ${quoted(d.from, 'its old name')} to ${quoted(d.to, 'a new name')}.`;
    case 'team.deleted':
      return `${actor} deleted the team.`;
    case 'member.invited':
      return `${actor} invited ${text(d.email) ?? 'someone'}${text(d.role) ? ` as ${d.role}` : ''}.`;
    case 'member.joined':
      return `${actor} joined the team${text(d.role) ? ` as ${d.role}` : ''}.`;
    case 'member.role_changed':
      return `${actor} made ${someone(d.user_id, 'a former member')} ${text(d.to) ?? 'another role'}${text(d.from) ? ` (was ${d.from})` : ''}.`;
    case 'member.removed': {
      const who = d.user_id === ev.user_id ? null : someone(d.user_id, 'a member');
      const n = typeof d.invitations_cancelled === 'number' ? d.invitations_cancelled : 0;
      const also = n > 0 ? `, and ${n} ${n === 1 ? 'invitation' : 'invitations'} they sent ${n === 1 ? 'was' : 'were'} cancelled` : '';
      return who ? `${actor} removed ${who} from the team${also}.` : `${actor} left the team${also}.`;
    }
    case 'invitation.cancelled':
      return `${actor} cancelled the invitation of ${text(d.email) ?? 'someone'}.`;
    case 'branding.updated': {
      const fields = Array.isArray(d.fields) ? d.fields.filter((f): f is string => typeof f === 'string').map((f) => f.replace(/_/g, ' ')) : [];
      return `${actor} changed the team's branding${fields.length ? ` (${fields.join(', ')})` : ''}.`;
    }
    case 'branding.deleted':
      return `${actor} removed the team's branding.`;
    case 'form.created':
      return `${actor} created the form ${form}.`;
    case 'form.published':
      return `${actor} published ${form === 'a form' ? 'a form' : `the form ${form}`}${typeof d.version === 'number' ? ` (version ${d.version})` : ''}.`;
    case 'form.unpublished':
      return `${actor} unpublished ${form === 'a form' ? 'a form' : `the form ${form}`}.`;
    case 'form.deleted':
      return `${actor} deleted the form ${form}.`;
    case 'form.moved_in':
      return `${actor} moved the form ${form} into this team${text(d.from_team_name) ? ` from ${quoted(d.from_team_name, '')}` : ' from their own forms'}.`;
    case 'form.moved_out':
      return `${actor} moved the form ${form} out of this team${text(d.to_team_name) ? ` into ${quoted(d.to_team_name, '')}` : ' into their own forms'}.`;
    case 'form.copied_in':
      return `${actor} copied the form ${form} into this team${text(d.from_team_name) ? ` from ${quoted(d.from_team_name, '')}` : ' from their own forms'}.`;
    case 'form.copied_out':
      return `${actor} copied the form ${form} ${text(d.to_team_name) ? `into ${quoted(d.to_team_name, '')}` : 'into their own forms'}.`;
    case 'responses.erased': {
      const n = typeof d.responses === 'number' ? d.responses : 0;
      return `${actor} erased ${n === 1 ? 'one response' : `${n} responses`} of the form ${form} at a respondent's request.`;
    }
    case 'webhooks.changed':
      return text(d.webhook_url) ? `${actor} set a form's webhook to ${d.webhook_url}.` : `${actor} removed a form's webhook.`;
    default:
      return `${actor}: ${words(ev.action)}.`;
  }
}
