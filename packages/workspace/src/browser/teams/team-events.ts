import { ApiError } from '../../data/client';
import { messageOf } from '../auth/auth-card';

/*
 * How a team section tells the team screen what happened (team-screen.ts): `fl-team-gone` when the API answers
 * 404 (the team was deleted in another tab or you were removed), `fl-team-seats` when seats may have changed.
 */

/** The message to show for a failed call; a 404 also tells the screen the team is gone. */
export function failure(el: HTMLElement, e: unknown): string {
  if (e instanceof ApiError && e.status === 404) el.dispatchEvent(new CustomEvent('fl-team-gone', { bubbles: true, composed: true }));
  return messageOf(e);
}

export function seatsChanged(el: HTMLElement): void {
  el.dispatchEvent(new CustomEvent('fl-team-seats', { bubbles: true, composed: true }));
}

/** A date and time as the reader's locale writes it. */
export function when(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "in 6 days", "in 3 hours": how soon an invitation expires. */
export function expiresIn(iso: string, now = Date.now()): string {
  const ms = new Date(iso).getTime() - now;
  if (!(ms > 0)) return 'expired';
  const h = Math.round(ms / 3_600_000);
  if (h < 1) return 'in less than an hour';
  if (h < 48) return `in ${h} ${h === 1 ? 'hour' : 'hours'}`;
  return `in ${Math.round(h / 24)} days`;
}
