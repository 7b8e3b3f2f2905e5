/*
 * Wall-clock times in a named time zone, from the runtime's own zone data (Intl): an owner's hours are in
 * their zone, slots are instants in UTC, and the respondent sees them in theirs (docs/booking.md, "Slots").
 */

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', weekday: 'short' });
    if (formatters.size > 200) formatters.clear();
    formatters.set(zone, f);
  }
  return f;
}

/** True for an IANA zone name the runtime knows (`Europe/Paris`, `UTC`). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || !zone || zone.length > 100) return false;
  try {
    formatter(zone);
    return true;
  } catch {
    return false;
  }
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** The wall-clock parts of an instant in `zone` (day of week 0 = Sunday). */
export function wallClock(utcMs: number, zone: string) {
  const parts = Object.fromEntries(formatter(zone).formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]));
  return { y: +parts.year!, mo: +parts.month!, d: +parts.day!, h: +parts.hour!, mi: +parts.minute!, dow: WEEKDAYS[parts.weekday!]! };
}

function offset(zone: string, utcMs: number): number {
  const w = wallClock(utcMs, zone);
  const s = new Date(utcMs).getUTCSeconds();
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, s) - Math.floor(utcMs / 1000) * 1000;
}

/**
 * A wall-clock time in `zone` as a UTC instant (ms). A time that does not exist (skipped by a daylight-saving
 * change) moves forward by the gap; a time that exists twice is the first.
 */
export function zonedToUtc(y: number, mo: number, d: number, h: number, mi: number, zone: string): number {
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  const first = guess - offset(zone, guess);
  return guess - offset(zone, first);
}

/** `HH:MM` as minutes of the day, or null. `24:00` is the end of the day. */
export function minutesOf(hhmm: unknown): number | null {
  if (typeof hhmm !== 'string') return null;
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) return null;
  const v = +m[1]! * 60 + +m[2]!;
  return +m[2]! < 60 && v <= 24 * 60 ? v : null;
}
