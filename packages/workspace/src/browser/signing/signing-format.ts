/** Shared wording of the Signing tab's screens (docs/workspace.md, "Signing"). */

/** A timestamp in the reader's own locale and time zone; an em dash for none. */
export const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : '—');

const ACTIONS: Record<string, string> = {
  session_created: 'Session created',
  document_viewed: 'Contract opened',
  signed: 'Signed',
  declined: 'Declined',
  signing_request_resent: 'Signing request resent',
  session_voided: 'Session voided',
  all_signed: 'Everyone signed',
  document_sealed: 'Document sealed',
  session_completed: 'Session completed',
  session_expired: 'Session expired',
  email_sent: 'Email sent',
};
/** The audit action in words (unknown ones as they are: the trail may grow new kinds). */
export const actionLabel = (a: string) => ACTIONS[a] ?? a.replace(/_/g, ' ');

/** Copies `text`; on plain http (no Clipboard API) selects `fallback`'s text and uses the old command. */
export async function copyText(text: string, fallback?: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    if (!fallback) return false;
    fallback.select();
    return document.execCommand('copy');
  }
}
