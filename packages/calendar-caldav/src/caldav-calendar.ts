import { CalendarError, type Calendar, type CalendarConnection, type CalendarEvent, type CalendarInfo, type Calendars, type TimeRange } from '@formloom/core';
import type * as Tsdav from 'tsdav';
import type { DAVCalendar } from 'tsdav';
import { busyOf, eventIcs, mergeBusy } from './ics';

/**
 * tsdav (with its XML parser) loads at the first request to a calendar server, not with the package: an
 * instance whose owners connect no calendar keeps it out of memory (docs/benchmarks.md, "Where the memory goes").
 */
let loaded: typeof Tsdav | undefined;
const tsdav = (): typeof Tsdav => (loaded ??= require('tsdav') as typeof Tsdav);

export interface CaldavOptions {
  /** Time-out of each request to the CalDAV server (default 15 s). */
  timeoutMs?: number;
  /** Read floating times (no zone) in this zone (default UTC). */
  floatingZone?: string;
}

/**
 * What tsdav's getBasicAuthHeaders makes (Latin-1 only, as it refuses other characters), without loading
 * tsdav for a connection that never sends a request.
 */
function basicAuthHeaders(username: string, password: string): Record<string, string> {
  const pair = `${username}:${password}`;
  if (/[^\u0000-\u00ff]/.test(pair)) {
    const e = new Error('The string to be encoded contains characters outside of the Latin1 range.');
    e.name = 'InvalidCharacterError';
    throw e;
  }
  return { authorization: `Basic ${Buffer.from(pair, 'latin1').toString('base64')}` };
}

const slash = (u: string) => (u.endsWith('/') ? u : `${u}/`);

/**
 * One owner's CalDAV calendar (docs/booking.md, "Connecting a calendar"). The URL may be the server, the
 * owner's principal or a calendar collection: tsdav discovers the calendars (RFC 6764 well-known, principal,
 * calendar home), and the adapter uses the collection the URL names, else the first that holds events.
 * Busy times come from a calendar-query with the server expanding recurrences (RFC 4791 7.8.1); events are
 * written with PUT at `<calendar>/<uid>.ics`, so writing a uid again replaces it.
 */
export class CaldavCalendar implements Calendar {
  private found: Promise<DAVCalendar> | null = null;
  private readonly headers: Record<string, string>;

  constructor(private readonly connection: CalendarConnection, private readonly options: CaldavOptions = {}) {
    this.headers = basicAuthHeaders(connection.username, connection.password);
  }

  private fetchOptions(): RequestInit {
    return { signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000) };
  }

  /** A plain request with the connection's credentials; failures become CalendarErrors. */
  private async request(method: string, url: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
    let res: Response;
    try {
      res = await fetch(url, { method, ...this.fetchOptions(), headers: { ...this.headers, ...init.headers }, ...(init.body !== undefined ? { body: init.body } : {}) });
    } catch (e) {
      throw new CalendarError('unreachable', `The calendar server at ${new URL(url).origin} could not be reached (${(e as Error).message})`);
    }
    if (res.status === 401 || res.status === 403) throw new CalendarError('unauthorized', 'The calendar server refused the user name or password');
    return res;
  }

  private calendar(): Promise<DAVCalendar> {
    this.found ??= this.discover().catch((e) => {
      this.found = null;
      throw e;
    });
    return this.found;
  }

  private async discover(): Promise<DAVCalendar> {
    let url: URL;
    try {
      url = new URL(this.connection.url);
    } catch {
      throw new CalendarError('not_found', 'The calendar URL is not a URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new CalendarError('not_found', 'The calendar URL must start with https:// or http://');
    // A first request that tells "wrong password" and "no server" apart before discovery hides them.
    const probe = await this.request('PROPFIND', url.href, { headers: { Depth: '0', 'Content-Type': 'application/xml' } });
    if (probe.status === 404) throw new CalendarError('not_found', 'Nothing was found at the calendar URL');
    if (probe.status >= 500) throw new CalendarError('unreachable', `The calendar server answered ${probe.status}`);
    let calendars: DAVCalendar[];
    try {
      const { createAccount, fetchCalendars } = tsdav();
      const account = await createAccount({
        account: { serverUrl: url.href, accountType: 'caldav', credentials: { username: this.connection.username, password: this.connection.password } },
        headers: this.headers,
        fetchOptions: this.fetchOptions(),
      });
      calendars = await fetchCalendars({ account, headers: this.headers, fetchOptions: this.fetchOptions() });
    } catch (e) {
      throw new CalendarError('refused', `The server at the calendar URL did not answer as a CalDAV server does (${(e as Error).message})`);
    }
    const withEvents = calendars.filter((c) => !c.components || c.components.includes('VEVENT'));
    const named = withEvents.find((c) => slash(new URL(c.url, url).href) === slash(url.href));
    const chosen = named ?? withEvents[0];
    if (!chosen) throw new CalendarError('not_found', 'The account has no calendar for events');
    return { ...chosen, url: slash(new URL(chosen.url, url).href) };
  }

  async test(): Promise<CalendarInfo> {
    const c = await this.calendar();
    const name = typeof c.displayName === 'string' && c.displayName.trim() ? c.displayName.trim() : null;
    return { url: c.url, name };
  }

  async busyTimes(range: TimeRange): Promise<TimeRange[]> {
    const calendar = await this.calendar();
    let objects;
    try {
      objects = await tsdav().fetchCalendarObjects({ calendar, timeRange: range, expand: true, headers: this.headers, fetchOptions: this.fetchOptions() });
    } catch (e) {
      throw new CalendarError('unreachable', `The calendar's events could not be read (${(e as Error).message})`);
    }
    const intervals = objects.flatMap((o) => (typeof o.data === 'string' ? busyOf(o.data, this.options.floatingZone ?? 'UTC', Date.parse(range.end)) : []));
    return mergeBusy(intervals, range);
  }

  private eventUrl(calendar: DAVCalendar, uid: string) {
    return `${calendar.url}${encodeURIComponent(uid)}.ics`;
  }

  async putEvent(event: CalendarEvent): Promise<void> {
    const calendar = await this.calendar();
    const res = await this.request('PUT', this.eventUrl(calendar, event.uid), { body: eventIcs(event, new Date()), headers: { 'Content-Type': 'text/calendar; charset=utf-8' } });
    if (!res.ok) throw new CalendarError(res.status >= 500 ? 'unreachable' : 'refused', `The calendar server refused the event (${res.status})`);
  }

  async deleteEvent(uid: string): Promise<void> {
    const calendar = await this.calendar();
    const res = await this.request('DELETE', this.eventUrl(calendar, uid));
    if (!res.ok && res.status !== 404 && res.status !== 410) {
      throw new CalendarError(res.status >= 500 ? 'unreachable' : 'refused', `The calendar server refused to remove the event (${res.status})`);
    }
  }
}

/** The calendar port over CalDAV. */
export const caldavCalendars = (options: CaldavOptions = {}): Calendars => ({
  id: 'caldav',
  connect: (connection) => new CaldavCalendar(connection, options),
});
