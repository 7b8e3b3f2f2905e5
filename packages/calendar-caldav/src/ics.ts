import type { CalendarEvent, TimeRange } from '@formloom/core';

/*
 * The little of iCalendar (RFC 5545) the adapter needs: reading the busy intervals of VEVENTs a CalDAV server
 * returns, and writing the event of a booking. Invitations mailed to people are made with ical-generator in the
 * booking area; here the text is small and fixed, so no library is loaded.
 */

/** Unfolds continuation lines (a line starting with a space or tab continues the previous one). */
const unfold = (text: string) => text.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);

interface Prop {
  name: string;
  params: Record<string, string>;
  value: string;
}

function parseLine(line: string): Prop | null {
  const colon = line.search(/:(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  if (colon < 0) return null;
  const [name, ...rawParams] = line.slice(0, colon).split(';');
  const params: Record<string, string> = {};
  for (const p of rawParams) {
    const eq = p.indexOf('=');
    if (eq > 0) params[p.slice(0, eq).toUpperCase()] = p.slice(eq + 1).replace(/^"|"$/g, '');
  }
  return { name: name!.toUpperCase(), params, value: line.slice(colon + 1) };
}

/** The offset of `zone` at `utcMs`, in ms (local = utc + offset), from the runtime's time zone data. */
function zoneOffset(zone: string, utcMs: number): number {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const parts = Object.fromEntries(f.formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]));
  const local = Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
  return local - utcMs;
}

/** A wall-clock time in `zone` as UTC milliseconds (two passes settle the offset around a DST change). */
export function zonedToUtc(y: number, mo: number, d: number, h: number, mi: number, s: number, zone: string): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi, s);
  let utc = guess - zoneOffset(zone, guess);
  utc = guess - zoneOffset(zone, utc);
  return utc;
}

/** A DATE or DATE-TIME value as UTC ms: `Z` is UTC, a TZID is converted, a floating time is read in `fallbackZone`. */
function timeOf(p: Prop, fallbackZone: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(p.value.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', z] = m;
  if (z) return Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s);
  let zone = p.params.TZID ?? fallbackZone;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    zone = fallbackZone;
  }
  return zonedToUtc(+y!, +mo!, +d!, +h, +mi, +s, zone);
}

/** An RFC 5545 DURATION (`PT30M`, `P1D`, `-PT5M`) in ms. */
function durationMs(v: string): number {
  const m = /^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(v.trim());
  if (!m) return 0;
  const [, sign, w = '0', d = '0', h = '0', mi = '0', s = '0'] = m;
  const ms = ((+w * 7 + +d) * 86400 + +h * 3600 + +mi * 60 + +s) * 1000;
  return sign === '-' ? -ms : ms;
}

const DAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** Local wall-clock parts of a UTC instant in `zone`. */
function localParts(utcMs: number, zone: string) {
  const local = new Date(utcMs + zoneOffset(zone, utcMs));
  return { y: local.getUTCFullYear(), mo: local.getUTCMonth() + 1, d: local.getUTCDate(), h: local.getUTCHours(), mi: local.getUTCMinutes(), s: local.getUTCSeconds() };
}

/**
 * The starts (UTC ms) of a recurring event up to `until`: FREQ DAILY, WEEKLY (with BYDAY), MONTHLY and YEARLY,
 * with INTERVAL, COUNT and UNTIL, stepped in the event's own zone so a daylight-saving change keeps the wall
 * time. Servers that expand recurrences themselves (RFC 4791 `expand`) send no RRULE; Radicale 3.1 does not
 * expand, so the adapter does. Rules beyond these parts are read as their simplest form.
 */
function occurrences(start: number, zone: string, rule: string, until: number): number[] {
  const r = Object.fromEntries(rule.split(';').map((kv) => kv.split('=') as [string, string]).map(([k, v]) => [k.toUpperCase(), v]));
  const interval = Math.max(1, Number(r.INTERVAL ?? 1) || 1);
  const count = r.COUNT ? Number(r.COUNT) : Infinity;
  const untilRule = r.UNTIL ? timeOf({ name: 'UNTIL', params: {}, value: r.UNTIL }, zone) ?? Infinity : Infinity;
  const last = Math.min(until, untilRule);
  const p = localParts(start, zone);
  const at = (y: number, mo: number, d: number) => zonedToUtc(y, mo, d, p.h, p.mi, p.s, zone);
  const out: number[] = [];
  const byDay = r.FREQ === 'WEEKLY' && r.BYDAY ? r.BYDAY.split(',').map((c) => DAY_CODES.indexOf(c.trim().slice(-2))).filter((n) => n >= 0) : null;
  for (let i = 0; out.length < count && i < 5000; i++) {
    let starts: number[];
    if (r.FREQ === 'DAILY') starts = [at(p.y, p.mo, p.d + i * interval)];
    else if (r.FREQ === 'WEEKLY') {
      const weekStart = new Date(Date.UTC(p.y, p.mo - 1, p.d + i * 7 * interval));
      const dow = weekStart.getUTCDay();
      starts = (byDay ?? [dow]).map((wd) => at(p.y, p.mo, p.d + i * 7 * interval + ((wd - dow + 7) % 7))).sort((a, b) => a - b);
    } else if (r.FREQ === 'MONTHLY') starts = [at(p.y, p.mo + i * interval, p.d)];
    else if (r.FREQ === 'YEARLY') starts = [at(p.y + i * interval, p.mo, p.d)];
    else return [start];
    if (starts[0]! > last) break;
    for (const s of starts) if (s >= start && s <= last && out.length < count) out.push(s);
  }
  return out;
}

/**
 * The busy intervals (UTC ms) of the VEVENTs in an iCalendar text, up to `until`: transparent and cancelled
 * events are free; recurrences are expanded (an instance moved by a RECURRENCE-ID event replaces its original,
 * EXDATEs are left out).
 */
export function busyOf(text: string, fallbackZone = 'UTC', until = Infinity): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const events: Prop[][] = [];
  let event: Prop[] | null = null;
  let depth = 0;
  for (const line of unfold(text)) {
    const p = parseLine(line);
    if (!p) continue;
    if (p.name === 'BEGIN' && p.value.toUpperCase() === 'VEVENT') {
      event = [];
      depth = 0;
      continue;
    }
    if (!event) continue;
    if (p.name === 'BEGIN') depth++;
    else if (p.name === 'END' && p.value.toUpperCase() !== 'VEVENT') depth--;
    else if (p.name === 'END') {
      events.push(event);
      event = null;
    } else if (depth === 0) event.push(p);
  }
  const moved = new Set(events.flatMap((e) => e.filter((x) => x.name === 'RECURRENCE-ID').map((x) => timeOf(x, fallbackZone))));
  for (const e of events) {
    const get = (n: string) => e.find((x) => x.name === n);
    const free = get('TRANSP')?.value.toUpperCase() === 'TRANSPARENT' || get('STATUS')?.value.toUpperCase() === 'CANCELLED';
    const startP = get('DTSTART');
    const start = startP ? timeOf(startP, fallbackZone) : null;
    if (free || start === null) continue;
    const endP = get('DTEND');
    const dur = get('DURATION');
    const allDay = startP!.params.VALUE === 'DATE' || /^\d{8}$/.test(startP!.value.trim());
    const end = endP ? timeOf(endP, fallbackZone) : dur ? start + durationMs(dur.value) : start + (allDay ? 86_400_000 : 0);
    if (end === null || end <= start) continue;
    const rule = get('RRULE');
    if (!rule || get('RECURRENCE-ID')) {
      out.push([start, end]);
      continue;
    }
    const zone = startP!.params.TZID ?? fallbackZone;
    const excluded = new Set(e.filter((x) => x.name === 'EXDATE').flatMap((x) => x.value.split(',').map((v) => timeOf({ ...x, value: v }, fallbackZone))));
    for (const s of occurrences(start, zone, rule.value, until)) {
      if (!excluded.has(s) && !moved.has(s)) out.push([s, s + (end - start)]);
    }
  }
  return out;
}

/** Merges overlapping or touching intervals and clips them to `range`. */
export function mergeBusy(intervals: Array<[number, number]>, range: TimeRange): TimeRange[] {
  const lo = Date.parse(range.start);
  const hi = Date.parse(range.end);
  const sorted = intervals.map(([a, b]) => [Math.max(a, lo), Math.min(b, hi)] as [number, number]).filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const merged: Array<[number, number]> = [];
  for (const iv of sorted) {
    const last = merged[merged.length - 1];
    if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
    else merged.push([...iv]);
  }
  return merged.map(([a, b]) => ({ start: new Date(a).toISOString(), end: new Date(b).toISOString() }));
}

const stamp = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
/** TEXT escaping (RFC 5545 3.3.11). */
const esc = (s: string) => s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
/** Folds a content line at 75 octets. */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let rest = line;
  while (Buffer.byteLength(rest, 'utf8') > 75) {
    let n = 74;
    while (Buffer.byteLength(rest.slice(0, n), 'utf8') > 74) n--;
    parts.push(rest.slice(0, n));
    rest = rest.slice(n);
  }
  parts.push(rest);
  return parts.join('\r\n ');
}

/** The event of a booking as a VCALENDAR object (one VEVENT, times in UTC). */
export function eventIcs(e: CalendarEvent, now: Date): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Formloom//Booking//EN',
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${stamp(now.toISOString())}`,
    `DTSTART:${stamp(e.start)}`,
    `DTEND:${stamp(e.end)}`,
    `SUMMARY:${esc(e.summary)}`,
    ...(e.description ? [`DESCRIPTION:${esc(e.description)}`] : []),
    ...(e.organizer ? [`ORGANIZER${e.organizer.name ? `;CN="${e.organizer.name.replace(/"/g, "'")}"` : ''}:mailto:${e.organizer.email}`] : []),
    ...(e.attendees ?? []).map((a) => `ATTENDEE${a.name ? `;CN="${a.name.replace(/"/g, "'")}"` : ''};ROLE=REQ-PARTICIPANT:mailto:${a.email}`),
    'STATUS:CONFIRMED',
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(fold).join('\r\n') + '\r\n';
}
